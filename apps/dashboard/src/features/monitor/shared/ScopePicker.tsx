import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { SitePicker } from '../../protection/shared/SitePicker.tsx';
import { useSiteGroups } from '../../sites/api.ts';
import type { SiteScope } from '../api.ts';

/** One site or one site group; neither is every site of the user (an admin: every site). */
export const ScopePicker = ({ scope, onChange }: { scope: SiteScope; onChange: (scope: SiteScope) => void }) => {
  const { t } = useTranslation();
  const groups = useSiteGroups();
  return (
    <>
      <SitePicker
        allowClear
        aria-label={t('monitor.site')}
        style={{ width: 220 }}
        value={scope.site_id}
        onChange={(site_id) => onChange(site_id === undefined ? {} : { site_id })}
      />
      <Select<number>
        allowClear
        aria-label={t('monitor.group')}
        placeholder={t('monitor.group')}
        style={{ width: 180 }}
        value={scope.group_id}
        loading={groups.isFetching}
        onChange={(group_id) => onChange(group_id === undefined ? {} : { group_id })}
        options={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
      />
    </>
  );
};
