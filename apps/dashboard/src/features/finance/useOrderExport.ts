import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { OrderFilter } from './api.ts';
import { csvText } from './csv.ts';
import { orderCsvRows } from './orderText.ts';
import { readAllOrders } from './readAllOrders.ts';

export interface ExportProgress {
  read: number;
  total: number;
}

/** Reads every order of a filter page by page and saves them as a CSV file built here; one export at a time. */
export const useOrderExport = () => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef(false);
  const start = async (filter: OrderFilter) => {
    if (running.current) return;
    running.current = true;
    setProgress({ read: 0, total: 0 });
    try {
      const all = await readAllOrders(http, filter, { onProgress: (read, total) => setProgress({ read, total }) });
      const file = new Blob([csvText(orderCsvRows(t, all.list))], { type: 'text/csv;charset=utf-8' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `orders-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      // The click has handed the blob to the browser's download by the next task.
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
      if (all.complete) feedback.success(t('finance.export.done', { count: all.list.length }));
      else feedback.error(t('finance.export.partial', { count: all.list.length }));
    } catch {
      // The client showed why.
    } finally {
      running.current = false;
      setProgress(null);
    }
  };
  return { progress, start };
};
