import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useDeferredValue, useState } from 'react';
import { useAccess } from '../../shared/access/useAccess.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useUserSearch } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

interface UserPickerProps {
  value?: number | undefined;
  onChange?: (id: number | undefined) => void;
  label: string;
  width?: number | string;
  allowClear?: boolean;
}

/** Who may search the users (GET /v1/users); other admins pick a user by id. */
const USER_SEARCH_ACCESS = ['admin:user', 'admin:sys'];

/**
 * A user chosen by typing part of the account, email, phone or name (GET /v1/users?search=), shown
 * as `account (#id)`; an admin who may not list users types the user's id instead.
 */
export const UserPicker = (props: UserPickerProps) =>
  useAccess(USER_SEARCH_ACCESS) ? <UserSearchPicker {...props} /> : <UserIdInput {...props} />;

const UserIdInput = ({ value, onChange, label, width = '100%' }: UserPickerProps) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  return (
    <InputNumber<number>
      aria-label={label}
      placeholder={t('packages.sold.userId')}
      style={{ width }}
      min={1}
      precision={0}
      value={value ?? null}
      onChange={(id) => onChange?.(id ?? undefined)}
    />
  );
};

const UserSearchPicker = ({ value, onChange, label, width = '100%', allowClear = false }: UserPickerProps) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const [search, setSearch] = useState('');
  const users = useUserSearch(useDeferredValue(search.trim()));
  // The chosen user stays labelled after the search moves on to other users.
  const [picked, setPicked] = useState<{ value: number; label: string }>();
  const options = (users.data ?? []).map((user) => ({ value: user.id, label: `${user.account} (#${user.id})` }));
  if (picked && value === picked.value && !options.some((option) => option.value === picked.value))
    options.unshift(picked);
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear={allowClear}
      aria-label={label}
      placeholder={t('packages.sold.userSearch')}
      style={{ width }}
      value={value}
      loading={users.isFetching}
      notFoundContent={users.isFetching ? null : t('packages.sold.noUser')}
      options={options}
      onChange={(id) => {
        setPicked(options.find((option) => option.value === id));
        onChange?.(id ?? undefined);
      }}
    />
  );
};
