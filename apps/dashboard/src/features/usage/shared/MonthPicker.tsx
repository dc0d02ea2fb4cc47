import Select from 'antd/es/select';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { recentMonths } from '../model/months.ts';

/** The billing month: the current one or one of the eleven before it (UTC). */
export const MonthPicker = ({ month, onChange }: { month: string; onChange: (month: string) => void }) => {
  const { t } = useTranslation();
  const months = useMemo(() => recentMonths(Date.now()), []);
  return (
    <Select<string>
      aria-label={t('usage.month')}
      style={{ width: 140 }}
      value={month}
      onChange={onChange}
      options={months.map((value) => ({ value, label: value }))}
    />
  );
};
