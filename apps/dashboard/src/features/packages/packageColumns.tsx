import { PACKAGE_FEATURES, type PackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { FeatureMark } from '../user-packages/PackageFeatures.tsx';
import { formatCents } from './money.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

interface PackageActions {
  edit: (pkg: PackageView) => void;
  remove: (pkg: PackageView) => Promise<void>;
  setOnSale: (pkg: PackageView, onSale: boolean) => Promise<void>;
}

/** 0 traffic or bandwidth is unlimited. */
export const unlimitedOr = (t: TFunction, value: number) => (value === 0 ? t('packages.common.unlimited') : value);

/** Under the limits: how many site features the package includes, those it leaves out in a tooltip. */
const FeatureSummary = ({ t, pkg }: { t: TFunction; pkg: PackageView }) => {
  const excluded = PACKAGE_FEATURES.filter((feature) => !pkg[feature]);
  const summary = (
    <Typography.Text type="secondary" data-testid={`package-features:${pkg.name}`} data-excluded={excluded.join(',')}>
      {excluded.length === 0
        ? t('packages.column.featuresAll')
        : t('packages.column.featuresSome', {
            count: PACKAGE_FEATURES.length - excluded.length,
            total: PACKAGE_FEATURES.length,
          })}
    </Typography.Text>
  );
  if (excluded.length === 0) return summary;
  return (
    <Tooltip
      title={
        <Space size={[4, 4]} wrap>
          {excluded.map((feature) => (
            <FeatureMark
              key={feature}
              feature={feature}
              allowed={false}
              testId={`package-feature:${pkg.name}:${feature}`}
            />
          ))}
        </Space>
      }
    >
      {summary}
    </Tooltip>
  );
};

/** The columns of /package/basic: prices per term, limits, sale state and the row actions. */
export const packageColumns = (t: TFunction, actions: PackageActions): ColumnsType<PackageView> => [
  { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
  { key: 'name', dataIndex: 'name', title: t('packages.column.name'), onCell: () => NO_WRAP },
  {
    key: 'group',
    dataIndex: 'group_name',
    title: t('packages.column.group'),
    render: (name: string | null) => name ?? '—',
  },
  {
    key: 'prices',
    // One column for the three terms keeps the table near the width of a 1280 px screen.
    title: t('packages.column.prices'),
    width: 150,
    align: 'right',
    onCell: () => NO_WRAP,
    render: (_, pkg) =>
      (['month', 'quarter', 'year'] as const).map((term) => formatCents(pkg[`price_${term}`])).join(' / '),
  },
  {
    key: 'traffic',
    title: t('packages.column.traffic'),
    // A set width lets the header wrap between words instead of widening the table.
    width: 90,
    render: (_, pkg) => unlimitedOr(t, pkg.traffic_gb),
  },
  {
    key: 'bandwidth',
    title: t('packages.column.bandwidth'),
    width: 110,
    render: (_, pkg) => unlimitedOr(t, pkg.bandwidth_mbps),
  },
  {
    key: 'limits',
    title: t('packages.column.limits'),
    width: 130,
    onCell: () => NO_WRAP,
    render: (_, pkg) => (
      <>
        {`${pkg.max_sites} / ${pkg.max_domains} / ${pkg.max_streams} / ${pkg.max_ports}`}
        <br />
        <FeatureSummary t={t} pkg={pkg} />
      </>
    ),
  },
  {
    key: 'on_sale',
    title: t('packages.column.onSale'),
    render: (_, pkg) => (
      <Switch
        size="small"
        checked={pkg.on_sale}
        aria-label={t('packages.column.onSaleOf', { name: pkg.name })}
        onChange={(checked) => actions.setOnSale(pkg, checked).catch(() => undefined)}
      />
    ),
  },
  {
    key: 'sold',
    // Sold beside stock in one column, read together.
    title: t('packages.column.soldOfStock'),
    onCell: () => NO_WRAP,
    render: (_, pkg) => `${pkg.sold} / ${pkg.stock ?? t('packages.common.unlimited')}`,
  },
  {
    key: 'actions',
    title: t('packages.common.actions'),
    // Not fixed: a fixed column covered the last columns at 1280 px; the table scrolls sideways instead.
    onCell: () => NO_WRAP,
    render: (_, pkg) => (
      <Space size={0}>
        <Button type="link" size="small" onClick={() => actions.edit(pkg)} data-testid={`package-edit:${pkg.name}`}>
          {t('packages.common.edit')}
        </Button>
        <Popconfirm
          title={t('packages.basic.confirmDelete', { name: pkg.name })}
          okText={t('packages.common.confirm')}
          cancelText={t('packages.common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => actions.remove(pkg).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid={`package-delete:${pkg.name}`}>
            {t('packages.common.delete')}
          </Button>
        </Popconfirm>
      </Space>
    ),
  },
];
