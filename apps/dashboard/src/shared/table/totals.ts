import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The count under every table, in one wording with plurals ("1 item", "5 items"; "共 5 条"):
 * `pagination={{ showTotal: useTotalText() }}`. `capped` when the server stopped counting at `count`.
 */
export function useTotalText(): (count: number, capped?: boolean | [number, number]) => string {
  const { t } = useTranslation();
  return useCallback(
    (count: number, capped?: boolean | [number, number]) =>
      capped === true ? t('common.totalCapped', { count }) : t('common.total', { count }),
    [t],
  );
}
