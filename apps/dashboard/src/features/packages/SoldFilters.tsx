import { USER_PACKAGE_STATES, type UserPackageState } from '@rampart/contracts';
import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { usePackages } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { UserPicker } from './UserPicker.tsx';

export interface SoldFilter {
  user_id?: number | undefined;
  package_id?: number | undefined;
  state?: UserPackageState | undefined;
  ends_before?: string | undefined;
}

/** User, package, state and "ends before"; each goes to the server. */
export const SoldFilters = ({ filter, onChange }: { filter: SoldFilter; onChange: (change: SoldFilter) => void }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const packages = usePackages();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12 }} data-testid="sold-filters">
      <UserPicker
        label={t('packages.sold.filterUser')}
        width={220}
        allowClear
        value={filter.user_id}
        onChange={(user_id) => onChange({ user_id })}
      />
      <Select<number>
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        aria-label={t('packages.sold.filterPackage')}
        placeholder={t('packages.sold.filterPackage')}
        style={{ width: 200 }}
        value={filter.package_id}
        onChange={(package_id) => onChange({ package_id })}
        options={(packages.data ?? []).map((pkg) => ({ value: pkg.id, label: pkg.name }))}
      />
      <Select<UserPackageState>
        allowClear
        aria-label={t('packages.sold.filterState')}
        placeholder={t('packages.sold.filterState')}
        style={{ width: 140 }}
        value={filter.state}
        onChange={(state) => onChange({ state })}
        options={USER_PACKAGE_STATES.map((state) => ({ value: state, label: t(`packages.state.${state}`) }))}
      />
      <DatePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        aria-label={t('packages.sold.filterEndsBefore')}
        prefix={t('packages.sold.filterEndsBefore')}
        style={{ width: 320 }}
        onChange={(picked) => onChange({ ends_before: picked ? picked.toISOString() : undefined })}
        data-testid="sold-ends-before"
      />
    </div>
  );
};
