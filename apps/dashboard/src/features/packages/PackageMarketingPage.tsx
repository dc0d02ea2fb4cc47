import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { CouponHistoryTab } from './CouponHistoryTab.tsx';
import { CouponsTab } from './CouponsTab.tsx';
import { DiscountsTab } from './DiscountsTab.tsx';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

/** Spec §2 /package/marketing (admin:package): discounts, coupons and the coupons' history. */
export const Component = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const [tab, setTab] = useState('discounts');
  const [couponId, setCouponId] = useState<number>();
  return (
    <section data-testid="package-marketing-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'discounts', label: t('packages.discounts.tab'), children: <DiscountsTab /> },
          {
            key: 'coupons',
            label: t('packages.coupons.tab'),
            children: (
              <CouponsTab
                onHistory={(coupon) => {
                  setCouponId(coupon.id);
                  setTab('history');
                }}
              />
            ),
          },
          {
            key: 'history',
            label: t('packages.history.tab'),
            children: <CouponHistoryTab couponId={couponId} onCouponId={setCouponId} />,
          },
        ]}
      />
    </section>
  );
};
