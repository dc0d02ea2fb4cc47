import { MESSAGE_TYPES, type MessageType } from '@rampart/contracts';
import DatePicker from 'antd/es/date-picker';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { queryTime } from '../account-logs/logTime.ts';
import type { MessageFilter } from './api.ts';

/** Type and read state for the user's inbox; user and time besides for the admin's query. */
export const MessageFilters = ({
  everyone,
  onChange,
}: {
  everyone: boolean;
  onChange: (change: MessageFilter) => void;
}) => {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="message-filters">
      {everyone && (
        <InputNumber<number>
          min={1}
          precision={0}
          aria-label={t('messages.list.filterUser')}
          placeholder={t('messages.list.filterUser')}
          style={{ width: 160 }}
          onChange={(value) => onChange({ user_id: value ?? undefined })}
        />
      )}
      <Select<MessageType>
        allowClear
        aria-label={t('messages.list.filterType')}
        placeholder={t('messages.list.filterType')}
        style={{ width: 200 }}
        onChange={(type) => onChange({ type })}
        options={MESSAGE_TYPES.map((value) => ({ value, label: t(`messages.type.${value}`) }))}
      />
      {!everyone && (
        <Select<'read' | 'unread'>
          allowClear
          aria-label={t('messages.list.filterRead')}
          placeholder={t('messages.list.filterRead')}
          style={{ width: 160 }}
          onChange={(state) => onChange({ read: state === undefined ? undefined : state === 'read' })}
          options={[
            { value: 'unread', label: t('messages.list.unread') },
            { value: 'read', label: t('messages.list.read') },
          ]}
        />
      )}
      {everyone && (
        <DatePicker.RangePicker
          showTime
          allowEmpty={[true, true]}
          aria-label={t('messages.list.filterTime')}
          onChange={(range) => onChange({ from: queryTime(range?.[0]), to: queryTime(range?.[1]) })}
        />
      )}
    </div>
  );
};
