import Select from 'antd/es/select';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserSearch } from './api.ts';

export interface PickedUser {
  id: number;
  account: string;
}

interface UserPickerProps {
  value?: number | undefined;
  onChange?: (id: number | undefined, user: PickedUser | undefined) => void;
  ariaLabel: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
}

/** A user chosen by searching account, email, phone or name (GET /v1/users), shown as `account (#id)`. */
export const UserPicker = ({ value, onChange, ariaLabel, allowClear, style }: UserPickerProps) => {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const users = useUserSearch(useDeferredValue(search), open);
  const [picked, setPicked] = useState<PickedUser>();
  const options = (users.data ?? []).map((user) => ({ value: user.id, label: `${user.account} (#${user.id})` }));
  if (picked && value === picked.id && !options.some((option) => option.value === picked.id))
    options.unshift({ value: picked.id, label: `${picked.account} (#${picked.id})` });
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear={allowClear}
      value={value}
      aria-label={ariaLabel}
      placeholder={t('finance.filter.userPlaceholder')}
      style={{ width: 220, ...style }}
      loading={users.isFetching}
      onOpenChange={setOpen}
      options={options}
      onChange={(id) => {
        const user = users.data?.find((entry) => entry.id === id);
        const next = user ? { id: user.id, account: user.account } : undefined;
        setPicked(next);
        onChange?.(id ?? undefined, next);
      }}
    />
  );
};
