import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { AdjustBalanceModal } from './AdjustBalanceModal.tsx';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { OrderFilters } from './OrderFilters.tsx';
import { OrderTable } from './OrderTable.tsx';
import { useOrderList } from './useOrderList.ts';

const RECHARGES = { kind: 'recharge' } as const;

/** Spec §2 /finance/recharge (admin:finance): every user's recharges, and adjusting a user's balance. */
export const Component = () => {
  const { t } = useLocales(FINANCE_LOCALES);
  const list = useOrderList(RECHARGES);
  const [adjusting, setAdjusting] = useState(false);
  return (
    <section data-testid="finance-recharge-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdjusting(true)} style={{ marginBottom: 16 }}>
        {t('finance.adjust.button')}
      </Button>
      <OrderFilters filter={list.filter} onChange={list.change} everyone kind={false} />
      <OrderTable {...list.table} showUser refunds testId="finance-recharge-table" />
      {adjusting && <AdjustBalanceModal onClose={() => setAdjusting(false)} />}
    </section>
  );
};
