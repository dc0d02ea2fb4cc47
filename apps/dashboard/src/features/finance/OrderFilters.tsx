import { ORDER_CHANNELS, ORDER_KINDS, ORDER_STATES } from '@rampart/contracts';
import DatePicker from 'antd/es/date-picker';
// antd's zh_CN names this dayjs locale for the calendar's month and weekday names.
import 'dayjs/locale/zh-cn';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { queryTime } from '../account-logs/logTime.ts';
import type { OrderFilter } from './api.ts';
import { orderLabel } from './orderText.ts';
import { UserPicker } from './UserPicker.tsx';

interface OrderFiltersProps {
  filter: OrderFilter;
  onChange: (change: OrderFilter) => void;
  /** The user filter and the channel, for the admins' list of every user. */
  everyone?: boolean;
  /** Leaves the kind out (a page that shows one kind). */
  kind?: boolean;
}

/** Kind, channel, state, created-between and (for admins) the user of an order list. */
export const OrderFilters = ({ filter, onChange, everyone = false, kind = true }: OrderFiltersProps) => {
  const { t } = useTranslation();
  const select = <K extends 'kind' | 'channel' | 'state'>(key: K, values: readonly string[], label: string) => (
    <Select<string>
      allowClear
      aria-label={label}
      placeholder={label}
      style={{ width: 150 }}
      value={filter[key]}
      onChange={(value) => onChange({ [key]: value ?? undefined } as OrderFilter)}
      options={values.map((value) => ({ value, label: orderLabel(t, key, value) }))}
    />
  );
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="order-filters">
      {everyone && (
        <UserPicker
          allowClear
          ariaLabel={t('finance.filter.user')}
          value={filter.user_id}
          onChange={(id) => onChange({ user_id: id })}
        />
      )}
      {kind && select('kind', ORDER_KINDS, t('finance.filter.kind'))}
      {everyone && select('channel', ORDER_CHANNELS, t('finance.filter.channel'))}
      {select('state', ORDER_STATES, t('finance.filter.state'))}
      <DatePicker.RangePicker
        showTime
        allowEmpty={[true, true]}
        aria-label={t('finance.filter.time')}
        onChange={(range) => onChange({ from: queryTime(range?.[0]), to: queryTime(range?.[1]) })}
      />
    </div>
  );
};
