import Progress from 'antd/es/progress';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import type { Job } from './jobPayload.ts';

/** Type, URLs, progress over the nodes, each node's state, and the time. */
export const jobColumns = (t: TFunction, language: string): ColumnsType<Job> => [
  { key: 'id', dataIndex: 'id', title: 'ID', width: 70 },
  {
    key: 'type',
    dataIndex: 'type',
    title: t('cacheClean.column.type'),
    width: 130,
    render: (type: Job['type']) => <Tag>{t(`cacheClean.type.${type}`)}</Tag>,
  },
  {
    key: 'urls',
    dataIndex: 'urls',
    title: t('cacheClean.column.urls'),
    render: (urls: string[]) => (
      <div data-testid="job-urls" style={{ wordBreak: 'break-all' }}>
        {urls.join('\n')}
      </div>
    ),
  },
  {
    key: 'progress',
    dataIndex: 'progress',
    title: t('cacheClean.column.progress'),
    width: 200,
    render: ({ total, done, failed }: Job['progress']) => (
      <>
        <Progress
          size="small"
          percent={total === 0 ? 100 : Math.round(((done + failed) / total) * 100)}
          status={failed > 0 ? 'exception' : undefined}
        />
        {t('cacheClean.progress', { done, failed, total })}
      </>
    ),
  },
  {
    key: 'nodes',
    dataIndex: 'nodes',
    title: t('cacheClean.column.nodes'),
    render: (nodes: Job['nodes']) =>
      nodes.map((node) => (
        <div key={node.node_id}>
          {node.name}: {node.state}
          {node.error && ` (${node.error})`}
        </div>
      )),
  },
  {
    key: 'created_at',
    dataIndex: 'created_at',
    title: t('cacheClean.column.time'),
    width: 180,
    render: (at: string) => new Date(at).toLocaleString(language),
  },
];
