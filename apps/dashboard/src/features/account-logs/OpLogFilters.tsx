import DatePicker from 'antd/es/date-picker';
import { useTranslation } from 'react-i18next';
import type { OpLogFilter } from './api.ts';
import { queryTime } from './logTime.ts';
import { SearchField } from './SearchField.tsx';

/** Account (for admins, who see everyone), action, object id, IP address and time range; each goes to the server. */
export const OpLogFilters = ({
  everyone,
  onChange,
}: {
  everyone: boolean;
  onChange: (change: OpLogFilter) => void;
}) => {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="op-log-filters">
      {everyone && <SearchField label={t('accountLogs.filter.user')} onSearch={(user) => onChange({ user })} />}
      {everyone && (
        <SearchField
          label={t('accountLogs.filter.impersonator')}
          onSearch={(impersonator) => onChange({ impersonator })}
        />
      )}
      <SearchField label={t('accountLogs.filter.action')} width={220} onSearch={(action) => onChange({ action })} />
      <SearchField label={t('accountLogs.filter.target')} width={140} onSearch={(target) => onChange({ target })} />
      <SearchField label={t('accountLogs.filter.ip')} onSearch={(ip) => onChange({ ip })} />
      <DatePicker.RangePicker
        showTime
        allowEmpty={[true, true]}
        aria-label={t('accountLogs.filter.time')}
        onChange={(range) => onChange({ from: queryTime(range?.[0]), to: queryTime(range?.[1]) })}
      />
    </div>
  );
};
