import type { UserPackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import { unlimitedOr } from './packageColumns.tsx';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;
const STATE_COLORS: Record<string, string> = { active: 'green', expired: 'default', suspended: 'orange' };

/** The columns of /package/sold: whose package, which one, its state, term and limits now. */
export const soldColumns = (
  t: TFunction,
  language: string,
  remove: (row: UserPackageView) => Promise<void>,
): ColumnsType<UserPackageView> => {
  const time = (iso: string) => new Date(iso).toLocaleString(language);
  return [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    {
      key: 'user',
      title: t('packages.sold.user'),
      onCell: () => NO_WRAP,
      render: (_, row) => `${row.username} (#${row.user_id})`,
    },
    { key: 'package', dataIndex: 'package_name', title: t('packages.sold.package'), onCell: () => NO_WRAP },
    { key: 'name', dataIndex: 'name', title: t('packages.sold.name'), onCell: () => NO_WRAP },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('packages.sold.state'),
      render: (state: string, row) => (
        <Tag color={STATE_COLORS[state] ?? 'default'} data-testid={`sold-state:${row.id}`}>
          {t(`packages.state.${state}`, { defaultValue: state })}
        </Tag>
      ),
    },
    {
      key: 'term',
      dataIndex: 'term',
      title: t('packages.sold.term'),
      render: (term: string) => t(`packages.term.${term}`, { defaultValue: term }),
    },
    { key: 'start', dataIndex: 'start_at', title: t('packages.sold.start'), onCell: () => NO_WRAP, render: time },
    {
      key: 'end',
      dataIndex: 'end_at',
      title: t('packages.sold.end'),
      onCell: () => NO_WRAP,
      render: (iso: string, row) => <span data-testid={`sold-end:${row.id}`}>{time(iso)}</span>,
    },
    {
      key: 'traffic',
      title: t('packages.column.traffic'),
      render: (_, row) => unlimitedOr(t, row.limits.traffic_gb),
    },
    {
      key: 'bandwidth',
      title: t('packages.column.bandwidth'),
      render: (_, row) => unlimitedOr(t, row.limits.bandwidth_mbps),
    },
    {
      key: 'limits',
      title: t('packages.sold.limits'),
      onCell: () => NO_WRAP,
      render: (_, row) =>
        `${row.used.sites}/${row.limits.max_sites} · ${row.used.domains}/${row.limits.max_domains} · ${row.used.streams}/${row.limits.max_streams}`,
    },
    {
      key: 'actions',
      title: t('packages.common.actions'),
      // Not fixed: a fixed column covered the end date at 1280 px; the table scrolls sideways instead.
      render: (_, row) => (
        <Popconfirm
          title={t('packages.sold.confirmDelete', { name: row.name, user: row.username })}
          okText={t('packages.common.confirm')}
          cancelText={t('packages.common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(row).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid={`sold-delete:${row.id}`}>
            {t('packages.common.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
};
