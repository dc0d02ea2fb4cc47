import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../protection/shared/time.ts';
import { formatBitRate, formatBytes, formatNumber, formatPercent } from '../model/units.ts';
import { type NodeMonitor, useMonitorNodes } from './api.ts';

const STATE_COLORS: Record<NodeMonitor['state'], string> = {
  online: 'green',
  offline: 'red',
  disabled: 'default',
  never: 'orange',
};

/** Every node now (refreshed every 10 s); a row's button shows that node's charts below. */
export const NodeFleetTable = ({ onShow }: { onShow: (nodeId: number) => void }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const nodes = useMonitorNodes();
  const version = nodes.data?.config_version ?? 0;
  const dash = '—';
  const share = (used: number | null, total: number | null) =>
    used === null || total === null || total === 0
      ? dash
      : `${formatBytes(used, language)} / ${formatBytes(total, language)} (${formatPercent(used / total, language)})`;
  const load = (node: NodeMonitor) =>
    [node.load1, node.load5, node.load15]
      .map((value) => (value === null ? dash : formatNumber(value, language)))
      .join(' / ');
  return (
    <Card size="small" title={t('monitorNode.fleet')} data-testid="node-fleet">
      <Table<NodeMonitor>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 1470 }}
        loading={nodes.isLoading}
        dataSource={nodes.data?.list ?? []}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('monitorNode.column.name'), width: 160, ellipsis: true },
          {
            key: 'state',
            title: t('monitorNode.column.state'),
            width: 110,
            render: (_, node) => <Tag color={STATE_COLORS[node.state]}>{t(`monitorNode.state.${node.state}`)}</Tag>,
          },
          {
            key: 'cpu',
            title: t('monitorNode.column.cpu'),
            width: 80,
            render: (_, node) => (node.cpu_percent === null ? dash : formatPercent(node.cpu_percent / 100, language)),
          },
          {
            key: 'memory',
            title: t('monitorNode.column.memory'),
            width: 200,
            render: (_, node) => share(node.memory_used_bytes, node.memory_total_bytes),
          },
          {
            key: 'disk',
            title: t('monitorNode.column.disk'),
            width: 200,
            render: (_, node) => share(node.disk_used_bytes, node.disk_total_bytes),
          },
          { key: 'load', title: t('monitorNode.column.load'), width: 190, render: (_, node) => load(node) },
          {
            key: 'connections',
            title: t('monitorNode.column.connections'),
            width: 130,
            render: (_, node) => (node.connections === null ? dash : formatNumber(node.connections, language)),
          },
          {
            key: 'bandwidth',
            title: t('monitorNode.column.bandwidth'),
            width: 200,
            render: (_, node) =>
              `${formatBitRate((node.last_minute.bytes_in * 8) / 60, language)} / ${formatBitRate((node.last_minute.bytes_out * 8) / 60, language)}`,
          },
          {
            key: 'requests',
            title: t('monitorNode.column.requests'),
            width: 120,
            render: (_, node) => formatNumber(node.last_minute.requests / 60, language),
          },
          {
            key: 'config',
            title: t('monitorNode.column.config'),
            width: 170,
            render: (_, node) =>
              `${node.applied_version} · ${node.config_current ? t('monitorNode.config.current') : t('monitorNode.config.behind', { version })}`,
          },
          {
            key: 'nginx',
            title: t('monitorNode.column.nginx'),
            width: 120,
            render: (_, node) => {
              if (node.nginx_running === false) return <Tag color="red">{t('monitorNode.nginx.stopped')}</Tag>;
              if (node.nginx_ok) return <Tag color="green">{t('monitorNode.nginx.ok')}</Tag>;
              return (
                // The error comes from the node: shown as text.
                <Tooltip title={node.last_error}>
                  <Tag color="red">{t('monitorNode.nginx.failed')}</Tag>
                </Tooltip>
              );
            },
          },
          {
            key: 'lastSeen',
            title: t('monitorNode.column.lastSeen'),
            width: 180,
            render: (_, node) => formatTime(node.last_seen_at, language),
          },
          {
            key: 'show',
            title: '',
            width: 90,
            fixed: 'right',
            render: (_, node) => (
              <Button size="small" aria-label={`${t('monitorNode.show')} ${node.name}`} onClick={() => onShow(node.id)}>
                {t('monitorNode.show')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
};
