import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Select from 'antd/es/select';
import Statistic from 'antd/es/statistic';
import Typography from 'antd/es/typography';
import { useMemo, useState } from 'react';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { MONITOR_LOCALES } from '../locales/bundle.ts';
import { type RangeChoice, refreshMs } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import { RangeChooser } from '../shared/RangeChooser.tsx';
import { useMonitorNodes, useNodeRealtime } from './api.ts';
import { MONITOR_NODE_LOCALES } from './locales/bundle.ts';
import { NodeCharts } from './NodeCharts.tsx';
import { NodeFleetTable } from './NodeFleetTable.tsx';
import { NodeIpLogTable } from './NodeIpLogTable.tsx';
import { NodeTopSites } from './NodeTopSites.tsx';
import { nodeSeries } from './nodeSeries.ts';

const UNITS: Record<number, string> = { 60: 'minute', 3600: 'hour', 86400: 'day' };

/** Spec §2 /node/realtime (admins): every node now, then one node's or the fleet's charts, sites and client IPs. */
export const Component = () => {
  const { t, i18n } = useLocales(MONITOR_LOCALES, MONITOR_NODE_LOCALES);
  const language = i18n.language;
  const [nodeId, setNodeId] = useState<number | undefined>();
  const [range, setRange] = useState<RangeChoice>({ preset: '1h' });
  const nodes = useMonitorNodes();
  const realtime = useNodeRealtime(nodeId, range);
  const series = useMemo(() => realtime.data && nodeSeries(realtime.data), [realtime.data]);
  const refresh = refreshMs(range);
  const unit = realtime.data && UNITS[realtime.data.interval];
  const totals = realtime.data?.totals;
  return (
    <section data-testid="node-realtime-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <NodeFleetTable onShow={setNodeId} />
      <Card size="small">
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            aria-label={t('monitorNode.node')}
            placeholder={t('monitorNode.allNodes')}
            style={{ width: 220 }}
            value={nodeId}
            onChange={(next) => setNodeId(next)}
            options={(nodes.data?.list ?? []).map((node) => ({ value: node.id, label: node.name }))}
          />
          <RangeChooser range={range} onChange={setRange} />
          <Button icon={<ReloadOutlined />} loading={realtime.isFetching} onClick={() => void realtime.refetch()}>
            {t('monitor.refresh')}
          </Button>
          <Typography.Text type="secondary">
            {unit && t('monitor.interval', { interval: t(`monitor.unit.${unit}`) })}
            {refresh && ` · ${t('monitor.autoRefresh', { seconds: refresh / 1000 })}`}
          </Typography.Text>
        </div>
      </Card>
      {totals && (
        <Card size="small" title={t('monitorNode.totals.title')} data-testid="node-totals">
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 48 }}>
            <Statistic title={t('monitorNode.totals.requests')} value={formatNumber(totals.requests, language)} />
            <Statistic title={t('monitorNode.totals.bytesIn')} value={formatBytes(totals.bytes_in, language)} />
            <Statistic title={t('monitorNode.totals.bytesOut')} value={formatBytes(totals.bytes_out, language)} />
          </div>
        </Card>
      )}
      {series && <NodeCharts series={series} t={t} />}
      <NodeTopSites nodeId={nodeId} range={range} />
      <NodeIpLogTable nodeId={nodeId} range={range} />
    </section>
  );
};
