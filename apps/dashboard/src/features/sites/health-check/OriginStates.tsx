import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import type { OriginHealth } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useOriginHealth } from './originHealthQuery.ts';

interface StateRow {
  key: string;
  node: string;
  origin: string;
  up: boolean;
  checked_at: string | null;
  error: string;
}

const rowsOf = (health: OriginHealth | undefined): StateRow[] =>
  (health?.nodes ?? []).flatMap((node) =>
    node.origins.map((origin) => {
      const endpoint = origin.address.includes(':')
        ? `[${origin.address}]:${origin.port}`
        : `${origin.address}:${origin.port}`;
      return {
        key: `${node.node_id} ${endpoint}`,
        node: node.name,
        origin: endpoint,
        up: origin.up,
        checked_at: origin.checked_at,
        error: origin.error,
      };
    }),
  );

/** Each origin address as each node's checks last saw it: up or out, when, and why it failed. */
export const OriginStates = ({ siteId, enabled }: { siteId: number; enabled: boolean }) => {
  const { t, i18n } = useTranslation();
  const health = useOriginHealth(siteId, enabled);
  if (!enabled) return null;
  const columns: ColumnsType<StateRow> = [
    { key: 'node', dataIndex: 'node', title: t('sites.healthCheck.states.node') },
    { key: 'origin', dataIndex: 'origin', title: t('sites.healthCheck.states.origin') },
    {
      key: 'up',
      dataIndex: 'up',
      title: t('sites.healthCheck.states.state'),
      render: (up: boolean) =>
        up ? (
          <Tag color="success">{t('sites.healthCheck.states.up')}</Tag>
        ) : (
          <Tag color="error">{t('sites.healthCheck.states.down')}</Tag>
        ),
    },
    {
      key: 'checked_at',
      dataIndex: 'checked_at',
      title: t('sites.healthCheck.states.checkedAt'),
      render: (at: string | null) =>
        at === null ? t('sites.healthCheck.states.notYet') : new Date(at).toLocaleString(i18n.language),
    },
    {
      key: 'error',
      dataIndex: 'error',
      title: t('sites.healthCheck.states.error'),
      render: (error: string) => error || '—',
    },
  ];
  return (
    <div data-testid="origin-states" style={{ marginBottom: 24 }}>
      <Typography.Title level={5} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        {t('sites.healthCheck.states.title')}
        <Button
          size="small"
          icon={<ReloadOutlined />}
          loading={health.isFetching}
          onClick={() => void health.refetch()}
        >
          {t('sites.edit.refresh')}
        </Button>
      </Typography.Title>
      <Table<StateRow>
        size="small"
        columns={columns}
        dataSource={rowsOf(health.data)}
        loading={health.isPending}
        pagination={false}
        locale={{ emptyText: t('sites.healthCheck.states.empty') }}
      />
    </div>
  );
};
