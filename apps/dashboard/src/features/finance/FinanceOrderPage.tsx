import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { OrderFilters } from './OrderFilters.tsx';
import { OrderTable } from './OrderTable.tsx';
import { OrderTotals } from './OrderTotals.tsx';
import { useOrderExport } from './useOrderExport.ts';
import { useOrderList } from './useOrderList.ts';

/** Spec §2 /finance/order (admin:finance): every user's orders, their totals for the filter, and a CSV export. */
export const Component = () => {
  const { t } = useLocales(FINANCE_LOCALES);
  const list = useOrderList();
  const exporter = useOrderExport();
  const progress = exporter.progress;
  return (
    <section data-testid="finance-order-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <OrderFilters filter={list.filter} onChange={list.change} everyone />
      <div style={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 16 }}>
        <OrderTotals credit={list.orders.data?.sum_credit ?? 0} debit={list.orders.data?.sum_debit ?? 0} />
        <div style={{ minWidth: 200, textAlign: 'right' }}>
          <Button
            icon={<DownloadOutlined />}
            loading={progress !== null}
            onClick={() => exporter.start(list.filter)}
            data-testid="order-export"
          >
            {progress
              ? t('finance.export.progress', { read: progress.read, total: progress.total })
              : t('finance.export.button')}
          </Button>
          {progress && progress.total > 0 && (
            <Progress percent={Math.floor((progress.read / progress.total) * 100)} size="small" />
          )}
        </div>
      </div>
      <OrderTable {...list.table} showUser refunds testId="finance-order-table" />
    </section>
  );
};
