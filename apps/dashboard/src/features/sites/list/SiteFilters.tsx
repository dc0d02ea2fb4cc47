// Search alone: the input package's index brings the password, text area and OTP inputs too.
import Search from 'antd/es/input/Search';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';

export interface SiteFilter {
  domain?: string;
  group_id?: number;
  enabled?: boolean;
  https?: boolean;
}

const yesNo = (value: string | undefined): boolean | undefined => (value === undefined ? undefined : value === 'true');

/** Search by domain and filters by group, status and HTTPS; every change goes to the server. */
export const SiteFilters = ({
  groups,
  onChange,
}: {
  groups: readonly { id: number; name: string }[];
  onChange: (change: SiteFilter) => void;
}) => {
  const { t } = useTranslation();
  return (
    <>
      <Search
        allowClear
        aria-label={t('sites.list.search')}
        placeholder={t('sites.list.search')}
        style={{ width: 240 }}
        onSearch={(value) => onChange({ domain: value.trim() || undefined })}
      />
      <Select<number>
        allowClear
        aria-label={t('sites.list.group')}
        placeholder={t('sites.list.group')}
        style={{ width: 160 }}
        onChange={(value) => onChange({ group_id: value })}
        options={groups.map((group) => ({ value: group.id, label: group.name }))}
      />
      <Select<string>
        allowClear
        aria-label={t('sites.list.status')}
        placeholder={t('sites.list.status')}
        style={{ width: 130 }}
        onChange={(value) => onChange({ enabled: yesNo(value) })}
        options={[
          { value: 'true', label: t('sites.enabled') },
          { value: 'false', label: t('sites.disabled') },
        ]}
      />
      <Select<string>
        allowClear
        aria-label="HTTPS"
        placeholder="HTTPS"
        style={{ width: 120 }}
        onChange={(value) => onChange({ https: yesNo(value) })}
        options={[
          { value: 'true', label: t('sites.on') },
          { value: 'false', label: t('sites.off') },
        ]}
      />
    </>
  );
};
