import type { PackageView } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Col from 'antd/es/col';
import Empty from 'antd/es/empty';
import Row from 'antd/es/row';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { RechargeLink } from '../finance/RechargeLink.tsx';
import {
  useBalance,
  useDiscounts,
  usePackageGroups,
  usePackageStanding,
  usePackagesOnSale,
  useUserPackageActions,
} from './api.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { formatCents } from './money.ts';
import { PackageCard } from './PackageCard.tsx';
import { PurchaseModal } from './PurchaseModal.tsx';
import { groupPackages } from './packageShelves.ts';
import { discountPercent, soldTerms, termPriceOf } from './pricing.ts';
import { unattachedText } from './purchaseResult.ts';

/** Spec §2 /user-package/buy: the packages on sale to the user, by group, and the checkout. */
export const Component = () => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const navigate = useNavigate();
  const packages = usePackagesOnSale();
  const groups = usePackageGroups();
  const discounts = useDiscounts();
  const balance = useBalance();
  const standing = usePackageStanding();
  const actions = useUserPackageActions();
  const [buying, setBuying] = useState<PackageView>();
  const shelves = groupPackages(groups.data ?? [], packages.data ?? []);
  const loading = (packages.isPending || groups.isPending) && !packages.error;
  const unattached = unattachedText(t, standing.data);

  return (
    <section data-testid="user-package-buy-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Space size={12} style={{ marginBottom: 16 }}>
        <Typography.Text>
          {t('userPackages.balanceLabel')}{' '}
          <Typography.Text strong data-testid="user-balance">
            {balance.data === undefined ? '—' : formatCents(balance.data)}
          </Typography.Text>
        </Typography.Text>
        <RechargeLink />
      </Space>
      {unattached && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="unattached-notice" title={unattached} />
      )}
      <Spin spinning={loading}>
        {!loading && shelves.length === 0 && <Empty description={t('userPackages.buy.empty')} />}
        {shelves.map((shelf) => (
          <div key={shelf.key} data-testid={`package-shelf:${shelf.name ?? 'other'}`} style={{ marginBottom: 24 }}>
            <Typography.Title level={4}>{shelf.name ?? t('userPackages.buy.otherGroup')}</Typography.Title>
            {shelf.description && <Typography.Paragraph type="secondary">{shelf.description}</Typography.Paragraph>}
            <Row gutter={[16, 16]}>
              {shelf.packages.map((pkg) => (
                <Col key={pkg.id} xs={24} md={12} xl={8} xxl={6}>
                  <PackageCard pkg={pkg} discounts={discounts.data ?? []} onBuy={setBuying} />
                </Col>
              ))}
            </Row>
          </div>
        ))}
      </Spin>
      {buying && (
        <PurchaseModal
          title={t('userPackages.buy.checkoutTitle', { name: buying.name })}
          payText={t('userPackages.purchase.pay')}
          terms={soldTerms(buying).map((term) => ({
            term,
            price: termPriceOf(buying, term) ?? 0,
            percent: discountPercent(discounts.data ?? [], buying.id, term),
          }))}
          quote={(draft, options) => actions.quoteBuy(buying.id, draft, options)}
          pay={(draft, options) => actions.buy(buying.id, draft, options)}
          onClose={() => setBuying(undefined)}
          onPaid={() => {
            void standing.refetch();
            setBuying(undefined);
            navigate('/user-package/my');
          }}
        />
      )}
    </section>
  );
};
