import type { BlockKind } from '@rampart/contracts';
import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import type { BlockLogFilter } from '../api.ts';
import { isIpAddress } from '../model/address.ts';
import { BLOCK_KINDS, isoTime } from '../model/blockLog.ts';
import { AddressSearch } from '../shared/AddressSearch.tsx';
import { ObjectSelect } from '../shared/ObjectSelect.tsx';
import { SitePicker } from '../shared/SitePicker.tsx';

/** Site, client IP, kind, rule group and time range; each change goes to the server. */
export const BlockLogFilters = ({
  filter,
  onChange,
}: {
  filter: BlockLogFilter;
  onChange: (change: BlockLogFilter) => void;
}) => {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="block-log-filters">
      <SitePicker
        allowClear
        aria-label={t('protection.blockLog.site')}
        style={{ width: 220 }}
        value={filter.site_id}
        onChange={(site_id) => onChange({ site_id })}
      />
      <AddressSearch
        aria-label={t('protection.blockLog.ip')}
        accepts={isIpAddress}
        onSearch={(ip) => onChange({ ip })}
      />
      <Select<BlockKind>
        allowClear
        aria-label={t('protection.blockLog.kind')}
        placeholder={t('protection.blockLog.kind')}
        style={{ width: 150 }}
        value={filter.kind}
        onChange={(kind) => onChange({ kind })}
        options={BLOCK_KINDS.map((value) => ({ value, label: t(`protection.kind.${value}`) }))}
      />
      <ObjectSelect
        kind="groups"
        allowClear
        aria-label={t('protection.blockLog.group')}
        placeholder={t('protection.blockLog.group')}
        style={{ width: 200 }}
        value={filter.group}
        onChange={(group) => onChange({ group: group ?? undefined })}
      />
      <DatePicker.RangePicker
        showTime
        allowEmpty={[true, true]}
        aria-label={t('protection.blockLog.time')}
        onChange={(range) => onChange({ from: isoTime(range?.[0]), to: isoTime(range?.[1]) })}
      />
    </div>
  );
};
