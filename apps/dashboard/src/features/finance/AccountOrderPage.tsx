import { useLocales } from '../../shared/i18n/useLocales.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { OrderFilters } from './OrderFilters.tsx';
import { OrderTable } from './OrderTable.tsx';
import { useOrderList } from './useOrderList.ts';

/** Spec §2 /account/order: the signed-in user's orders (every change to their balance), filtered. */
export const Component = () => {
  useLocales(FINANCE_LOCALES);
  const list = useOrderList();
  return (
    <section data-testid="account-order-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <OrderFilters filter={list.filter} onChange={list.change} />
      <OrderTable {...list.table} testId="account-order-table" />
    </section>
  );
};
