import EditOutlined from '@ant-design/icons/EditOutlined';
import type { UserPackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { PackageFeatureTags } from './PackageFeatures.tsx';
import { UsageBars } from './UsageBars.tsx';

const STATE_COLORS: Record<string, string> = { active: 'green', expired: 'red', suspended: 'orange' };
const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Headers on one line: a narrow table scrolls sideways rather than break a title. */
const wholeHeaders = (columns: ColumnsType<UserPackageView>): ColumnsType<UserPackageView> =>
  columns.map((column) => ({ ...column, onHeaderCell: () => NO_WRAP }));

export interface UserPackageRowActions {
  rename: (userPackage: UserPackageView) => void;
  renew: (userPackage: UserPackageView) => void;
  upgrade: (userPackage: UserPackageView) => void;
  setAutoRenew: (userPackage: UserPackageView, on: boolean) => void;
  /** The user packages whose auto-renew is being saved. */
  saving: ReadonlySet<number>;
  /** Whether the package is still sold to the user (a renewal needs it). */
  renewable: (userPackage: UserPackageView) => boolean;
}

/** The columns of My packages. */
export const userPackageColumns = (
  t: TFunction,
  formatTime: (iso: string) => string,
  actions: UserPackageRowActions,
): ColumnsType<UserPackageView> =>
  wholeHeaders([
    {
      key: 'name',
      title: t('userPackages.my.column.name'),
      onCell: () => NO_WRAP,
      render: (_, row) => (
        <Space size={4}>
          <span data-testid={`user-package-name:${row.id}`}>{row.name}</span>
          <Tooltip title={t('userPackages.my.rename')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('userPackages.my.renameLabel', { name: row.name })}
              onClick={() => actions.rename(row)}
            />
          </Tooltip>
        </Space>
      ),
    },
    { key: 'package', dataIndex: 'package_name', title: t('userPackages.my.column.package'), onCell: () => NO_WRAP },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('userPackages.my.column.state'),
      render: (state: string, row) => (
        <Tag color={STATE_COLORS[state]} data-testid={`user-package-state:${row.name}`}>
          {t(`userPackages.state.${state}`, { defaultValue: state })}
        </Tag>
      ),
    },
    {
      key: 'end',
      dataIndex: 'end_at',
      title: t('userPackages.my.column.end'),
      onCell: () => NO_WRAP,
      render: (end: string, row) => <span data-testid={`user-package-end:${row.name}`}>{formatTime(end)}</span>,
    },
    { key: 'usage', title: t('userPackages.my.column.usage'), render: (_, row) => <UsageBars userPackage={row} /> },
    {
      key: 'features',
      title: t('userPackages.my.column.features'),
      width: 280,
      render: (_, row) => <PackageFeatureTags features={row.features} testId={`user-package-features:${row.name}`} />,
    },
    {
      key: 'autoRenew',
      title: t('userPackages.my.column.autoRenew'),
      onHeaderCell: () => NO_WRAP,
      render: (_, row) => (
        <Switch
          checked={row.auto_renew}
          loading={actions.saving.has(row.id)}
          aria-label={t('userPackages.my.autoRenewLabel', { name: row.name })}
          onChange={(on) => actions.setAutoRenew(row, on)}
        />
      ),
    },
    {
      key: 'actions',
      title: t('userPackages.my.column.actions'),
      fixed: 'right',
      onCell: () => NO_WRAP,
      render: (_, row) => (
        <Space size={0}>
          <Tooltip title={actions.renewable(row) ? undefined : t('userPackages.my.notSold')}>
            <Button
              type="link"
              size="small"
              disabled={!actions.renewable(row)}
              onClick={() => actions.renew(row)}
              data-testid={`user-package-renew:${row.name}`}
            >
              {t('userPackages.my.renew')}
            </Button>
          </Tooltip>
          <Button
            type="link"
            size="small"
            disabled={row.state !== 'active'}
            onClick={() => actions.upgrade(row)}
            data-testid={`user-package-upgrade:${row.name}`}
          >
            {t('userPackages.my.upgrade')}
          </Button>
        </Space>
      ),
    },
  ]);
