import { type DiscountView, PACKAGE_FEATURES, type PackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { unlimitedWhenZero } from './limits.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { discountPercent, soldTerms, termPriceOf } from './pricing.ts';

interface PackageCardProps {
  pkg: PackageView;
  discounts: readonly DiscountView[];
  onBuy: (pkg: PackageView) => void;
}

/** One package on sale: its prices by term (with the discount for the term), its limits, and Buy. */
export const PackageCard = ({ pkg, discounts, onBuy }: PackageCardProps) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const terms = soldTerms(pkg);
  const soldOut = pkg.stock !== null && pkg.stock <= 0;
  const amount = (value: number, unit: string) => {
    const limit = unlimitedWhenZero(value);
    return limit === null ? t('userPackages.limits.unlimited') : `${limit} ${unit}`;
  };
  const yesNo = (on: boolean) =>
    on ? <Tag color="green">{t('userPackages.limits.yes')}</Tag> : <Tag>{t('userPackages.limits.no')}</Tag>;

  return (
    <Card
      title={pkg.name}
      data-testid={`package-card:${pkg.name}`}
      style={{ height: '100%' }}
      actions={[
        <Button
          key="buy"
          type="primary"
          disabled={soldOut || terms.length === 0}
          onClick={() => onBuy(pkg)}
          data-testid={`package-buy:${pkg.name}`}
        >
          {soldOut ? t('userPackages.buy.soldOut') : t('userPackages.buy.buy')}
        </Button>,
      ]}
    >
      {pkg.description && <Typography.Paragraph type="secondary">{pkg.description}</Typography.Paragraph>}
      <div style={{ marginBottom: 12 }}>
        {terms.map((term) => {
          const percent = discountPercent(discounts, pkg.id, term);
          return (
            <div key={term} data-testid={`package-price:${pkg.name}:${term}`}>
              <Typography.Text strong style={{ fontSize: 18 }}>
                {formatCents(termPriceOf(pkg, term) ?? 0)}
              </Typography.Text>{' '}
              / {t(`userPackages.term.${term}`)}
              {percent > 0 && (
                <Tag color="red" style={{ marginInlineStart: 6 }}>
                  -{percent}%
                </Tag>
              )}
            </div>
          );
        })}
      </div>
      <Descriptions
        size="small"
        column={1}
        // antd's own colon is ASCII in every language: the label carries the language's colon.
        colon={false}
        items={[
          { key: 'traffic', label: t('userPackages.limits.traffic'), children: amount(pkg.traffic_gb, 'GB') },
          {
            key: 'bandwidth',
            label: t('userPackages.limits.bandwidth'),
            children: amount(pkg.bandwidth_mbps, 'Mbps'),
          },
          { key: 'sites', label: t('userPackages.limits.sites'), children: pkg.max_sites },
          { key: 'domains', label: t('userPackages.limits.domains'), children: pkg.max_domains },
          { key: 'streams', label: t('userPackages.limits.streams'), children: pkg.max_streams },
          { key: 'ports', label: t('userPackages.limits.ports'), children: pkg.max_ports },
          ...PACKAGE_FEATURES.map((feature) => ({
            key: feature,
            label: t(`userPackages.features.${feature}`),
            children: (
              <span data-testid={`package-feature:${pkg.name}:${feature}`} data-allowed={pkg[feature]}>
                {yesNo(pkg[feature])}
              </span>
            ),
          })),
        ].map((item) => ({ ...item, label: t('userPackages.label', { label: item.label }) }))}
      />
      {pkg.stock !== null && !soldOut && (
        <Typography.Text type="secondary">{t('userPackages.buy.stock', { count: pkg.stock })}</Typography.Text>
      )}
    </Card>
  );
};
