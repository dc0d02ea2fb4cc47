import { USER_SORTS, type UserSort } from '@rampart/contracts';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import type { UserQuery } from './api.ts';

type Filter = Partial<Omit<UserQuery, 'page' | 'limit'>>;

const SORTS = USER_SORTS.filter((sort) => !sort.includes('created_at'));

/** Search over account, email, phone and name; type, group, state and certified filters; the sort. */
export const UserFilters = ({
  groups,
  onChange,
}: {
  groups: readonly { id: number; name: string }[];
  onChange: (change: Filter) => void;
}) => {
  const { t } = useTranslation();
  return (
    <>
      <Input.Search
        allowClear
        aria-label={t('users.list.search')}
        placeholder={t('users.list.search')}
        maxLength={64}
        style={{ width: 260 }}
        onSearch={(value) => onChange({ search: value.trim() || undefined })}
      />
      <Select<1 | 2>
        allowClear
        aria-label={t('users.list.type')}
        placeholder={t('users.list.type')}
        style={{ width: 120 }}
        onChange={(type) => onChange({ type })}
        options={[
          { value: 2, label: t('users.type.2') },
          { value: 1, label: t('users.type.1') },
        ]}
      />
      <Select<number>
        allowClear
        aria-label={t('users.list.group')}
        placeholder={t('users.list.group')}
        style={{ width: 160 }}
        onChange={(group) => onChange({ group })}
        options={[{ value: 0, label: t('users.list.noGroup') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
      />
      <Select<'enabled' | 'disabled'>
        allowClear
        aria-label={t('users.list.state')}
        placeholder={t('users.list.state')}
        style={{ width: 120 }}
        onChange={(state) => onChange({ state })}
        options={[
          { value: 'enabled', label: t('users.state.enabled') },
          { value: 'disabled', label: t('users.state.disabled') },
        ]}
      />
      <Select<string>
        allowClear
        aria-label={t('users.list.certified')}
        placeholder={t('users.list.certified')}
        style={{ width: 120 }}
        onChange={(value) => onChange({ certified: value === undefined ? undefined : value === 'true' })}
        options={[
          { value: 'true', label: t('users.yes') },
          { value: 'false', label: t('users.no') },
        ]}
      />
      <Select<UserSort>
        aria-label={t('users.list.sort')}
        style={{ width: 150 }}
        defaultValue={'-id' as UserSort}
        onChange={(sort) => onChange({ sort })}
        options={SORTS.map((sort) => ({ value: sort, label: t(`users.sort.${sort}`) }))}
      />
    </>
  );
};
