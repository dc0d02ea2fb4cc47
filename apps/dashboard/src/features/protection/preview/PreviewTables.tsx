import type { PreviewRateCrossing, PreviewSample, RulePreview } from '@rampart/contracts';
import Collapse from 'antd/es/collapse';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../shared/time.ts';

type Top = RulePreview['top'];
type Counted = Top['addresses'][number];

const TOP_LISTS: readonly (keyof Top)[] = ['addresses', 'paths', 'user_agents', 'countries'];
const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 12 } as const;
const cut = { maxWidth: 320 } as const;

/** The addresses, paths, user agents and countries with the most matched requests. */
export const PreviewTops = ({ top, number }: { top: Top; number: (value: number) => string }) => {
  const { t } = useTranslation();
  return (
    <div style={grid}>
      {TOP_LISTS.map((list) => (
        <Table<Counted>
          key={list}
          size="small"
          bordered
          pagination={false}
          data-testid={`rule-preview-top-${list}`}
          rowKey="value"
          dataSource={top[list]}
          columns={[
            {
              key: 'value',
              dataIndex: 'value',
              title: t(`protection.preview.top.${list}`),
              ellipsis: true,
              render: (value: string) => (
                <Typography.Text style={cut} ellipsis={{ tooltip: value }}>
                  {value || '—'}
                </Typography.Text>
              ),
            },
            {
              key: 'requests',
              dataIndex: 'requests',
              title: t('protection.preview.top.requests'),
              align: 'right',
              width: 100,
              render: (requests: number) => number(requests),
            },
          ]}
        />
      ))}
    </div>
  );
};

/** The addresses a rate filter would have stopped, most requests over the rate first. */
export const PreviewCrossings = ({
  crossings,
  number,
}: {
  crossings: readonly PreviewRateCrossing[];
  number: (value: number) => string;
}) => {
  const { t, i18n } = useTranslation();
  if (crossings.length === 0) return null;
  return (
    <div style={{ marginTop: 16 }}>
      <h4>{t('protection.preview.crossings.title')}</h4>
      <Table<PreviewRateCrossing>
        size="small"
        bordered
        pagination={false}
        data-testid="rule-preview-crossings"
        rowKey="client_ip"
        dataSource={[...crossings]}
        columns={[
          { key: 'ip', dataIndex: 'client_ip', title: t('protection.preview.crossings.ip') },
          {
            key: 'first',
            dataIndex: 'first_crossed_at',
            title: t('protection.preview.crossings.firstCrossed'),
            render: (at: string) => formatTime(at, i18n.language),
          },
          {
            key: 'over',
            dataIndex: 'requests_over',
            title: t('protection.preview.crossings.requestsOver'),
            align: 'right',
            render: (over: number) => number(over),
          },
        ]}
      />
    </div>
  );
};

/** Up to 20 matched requests, newest first, folded away until asked for. */
export const PreviewSamples = ({ samples }: { samples: readonly PreviewSample[] }) => {
  const { t, i18n } = useTranslation();
  if (samples.length === 0) return null;
  const table = (
    <Table<PreviewSample>
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      rowKey={(sample) => `${sample.time} ${sample.client_ip} ${sample.uri}`}
      dataSource={[...samples]}
      columns={[
        {
          key: 'time',
          dataIndex: 'time',
          title: t('protection.preview.samples.time'),
          render: (at: string) => formatTime(at, i18n.language),
        },
        { key: 'ip', dataIndex: 'client_ip', title: t('protection.preview.samples.ip') },
        { key: 'country', dataIndex: 'country', title: t('protection.preview.samples.country') },
        {
          key: 'request',
          title: t('protection.preview.samples.request'),
          render: (_value, sample) => (
            <Typography.Text style={cut} ellipsis={{ tooltip: `${sample.method} ${sample.host}${sample.uri}` }}>
              {`${sample.method} ${sample.host}${sample.uri}`}
            </Typography.Text>
          ),
        },
        { key: 'status', dataIndex: 'status', title: t('protection.preview.samples.status') },
        {
          key: 'ua',
          dataIndex: 'user_agent',
          title: t('protection.preview.samples.userAgent'),
          render: (agent: string) => (
            <Typography.Text style={{ maxWidth: 220 }} ellipsis={{ tooltip: agent }}>
              {agent || '—'}
            </Typography.Text>
          ),
        },
        {
          key: 'outcome',
          dataIndex: 'outcome',
          title: t('protection.preview.samples.outcome'),
          render: (outcome: string) => t(`protection.preview.outcome.${outcome}`),
        },
      ]}
    />
  );
  return (
    <Collapse
      style={{ marginTop: 16 }}
      size="small"
      data-testid="rule-preview-samples"
      items={[{ key: 'samples', label: t('protection.preview.samples.title', { n: samples.length }), children: table }]}
    />
  );
};
