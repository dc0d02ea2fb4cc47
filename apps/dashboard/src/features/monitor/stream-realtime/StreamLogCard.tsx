import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import { MONITOR_LIMITS } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCidr } from '../../protection/model/address.ts';
import { AddressSearch } from '../../protection/shared/AddressSearch.tsx';
import { formatTime } from '../../protection/shared/time.ts';
import { type RangeChoice, rangeQuery, withinRawLog } from '../model/ranges.ts';
import { formatBytes, formatNumber } from '../model/units.ts';
import {
  type StreamLogEntry,
  type StreamLogFilter,
  type StreamScope,
  useStreamLog,
  useStreamLogExport,
} from './api.ts';

const PAGE_SIZE = 20;
const STATUSES = ['2xx', '4xx', '5xx', '200', '400', '403', '500', '502', '503'];

type Fields = Pick<StreamLogFilter, 'ip' | 'protocol' | 'status'>;

/**
 * The stream log of the page's scope and range: one line per ended connection, newest first, paged
 * by the server's cursor (the range is fixed until "Newest", so older pages stay put), as CSV.
 */
export const StreamLogCard = ({ scope, range }: { scope: StreamScope; range: RangeChoice }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [fields, setFields] = useState<Fields>({});
  const [bounds, setBounds] = useState(() => rangeQuery(range, Date.now()));
  const [cursors, setCursors] = useState<string[]>([]);
  const filter: StreamLogFilter = { ...scope, ...fields, ...bounds };
  const answerable = withinRawLog(range, Date.now());
  const log = useStreamLog(filter, cursors.at(-1), PAGE_SIZE);
  const exportCsv = useStreamLogExport();
  const [exporting, setExporting] = useState(false);
  const restart = () => {
    setBounds(rangeQuery(range, Date.now()));
    setCursors([]);
  };
  // A new scope or range starts from the newest page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: restart reads the range itself
  useEffect(restart, [range, scope.stream_id, scope.group_id]);
  const change = (next: Fields) => {
    setFields((current) => ({ ...current, ...next }));
    setCursors([]);
  };
  const next = log.data?.next_cursor;
  const total = log.data
    ? t(log.data.total_capped ? 'monitor.accessLog.totalCapped' : 'monitor.accessLog.total', { count: log.data.total })
    : '';
  const bytes = (value: number) => formatBytes(value, language);
  if (!answerable) {
    return (
      <Card size="small" title={t('monitorStream.log.title')}>
        <Alert type="info" showIcon title={t('monitor.top.rawLimit', { days: MONITOR_LIMITS.rawLogDays })} />
      </Card>
    );
  }
  return (
    <Card size="small" title={t('monitorStream.log.title')} data-testid="stream-log">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <AddressSearch aria-label={t('monitor.accessLog.ip')} accepts={isCidr} onSearch={(ip) => change({ ip })} />
        <Select<'tcp' | 'udp'>
          allowClear
          aria-label={t('monitorStream.log.protocol')}
          placeholder={t('monitorStream.log.protocol')}
          style={{ width: 120 }}
          value={fields.protocol}
          onChange={(protocol) => change({ protocol })}
          options={[
            { value: 'tcp', label: 'TCP' },
            { value: 'udp', label: 'UDP' },
          ]}
        />
        <Select<string>
          allowClear
          aria-label={t('monitor.accessLog.status')}
          placeholder={t('monitor.accessLog.status')}
          style={{ width: 120 }}
          value={fields.status}
          onChange={(status) => change({ status })}
          options={STATUSES.map((value) => ({ value, label: value }))}
        />
        <Button icon={<ReloadOutlined />} onClick={restart}>
          {t('monitor.accessLog.newest')}
        </Button>
        <Button disabled={cursors.length === 0} onClick={() => setCursors((list) => list.slice(0, -1))}>
          {t('monitor.accessLog.newer')}
        </Button>
        <Button disabled={!next} onClick={() => next && setCursors((list) => [...list, next])}>
          {t('monitor.accessLog.older')}
        </Button>
        <Typography.Text type="secondary" data-testid="stream-log-total">
          {total}
        </Typography.Text>
        <Button
          style={{ marginLeft: 'auto' }}
          icon={<DownloadOutlined />}
          loading={exporting}
          title={t('monitor.accessLog.exported', { count: MONITOR_LIMITS.csvMaxRows })}
          onClick={async () => {
            setExporting(true);
            try {
              await exportCsv(filter);
            } catch {
              // The HTTP client has shown the failure.
            } finally {
              setExporting(false);
            }
          }}
        >
          {t('monitor.accessLog.export')}
        </Button>
      </div>
      <Table<StreamLogEntry>
        rowKey="id"
        size="small"
        loading={log.isFetching}
        dataSource={log.data?.list ?? []}
        scroll={{ x: 1100 }}
        pagination={false}
        columns={[
          {
            key: 'time',
            dataIndex: 'time',
            title: t('monitor.accessLog.time'),
            width: 180,
            render: (time: string) => formatTime(time, language),
          },
          { key: 'stream', dataIndex: 'stream_id', title: t('monitorStream.log.stream'), width: 90 },
          // Values come from connections: React shows them as text.
          { key: 'client', dataIndex: 'client_ip', title: t('monitor.accessLog.client'), ellipsis: true },
          { key: 'protocol', dataIndex: 'protocol', title: t('monitorStream.log.protocol'), width: 90 },
          {
            key: 'status',
            dataIndex: 'status',
            title: t('monitor.accessLog.status'),
            width: 90,
            render: (status: number) => <Tag color={status >= 400 ? 'red' : 'green'}>{status}</Tag>,
          },
          { key: 'in', dataIndex: 'bytes_received', title: t('monitorStream.top.bytesIn'), width: 110, render: bytes },
          { key: 'out', dataIndex: 'bytes_sent', title: t('monitorStream.top.bytesOut'), width: 110, render: bytes },
          {
            key: 'duration',
            dataIndex: 'session_time_ms',
            title: t('monitorStream.log.duration'),
            width: 110,
            render: (ms: number) => t('monitorStream.seconds', { value: formatNumber(ms / 1000, language) }),
          },
          { key: 'node', dataIndex: 'node_id', title: t('monitor.accessLog.node'), width: 90 },
          { key: 'upstream', dataIndex: 'upstream', title: t('monitorStream.log.upstream'), ellipsis: true },
        ]}
      />
    </Card>
  );
};
