import { useTranslation } from 'react-i18next';
import type { BanQuery } from '../api.ts';
import { isCidr } from '../model/address.ts';
import { AddressSearch } from '../shared/AddressSearch.tsx';
import { SitePicker } from '../shared/SitePicker.tsx';

export type BanFilter = Omit<BanQuery, 'page' | 'limit'>;

/** Site and address (as listed: an address or a range). */
export const BanFilters = ({ filter, onChange }: { filter: BanFilter; onChange: (change: BanFilter) => void }) => {
  const { t } = useTranslation();
  return (
    <>
      <SitePicker
        allowClear
        aria-label={t('protection.blockLog.site')}
        style={{ width: 220 }}
        value={filter.site_id}
        onChange={(site_id) => onChange({ site_id })}
      />
      <AddressSearch aria-label={t('protection.bans.cidr')} accepts={isCidr} onSearch={(ip) => onChange({ ip })} />
    </>
  );
};
