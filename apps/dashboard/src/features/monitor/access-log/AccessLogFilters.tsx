import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isCidr } from '../../protection/model/address.ts';
import { AddressSearch } from '../../protection/shared/AddressSearch.tsx';
import type { AccessLogFilter } from '../api.ts';
import { countryOptions } from '../model/countries.ts';
import type { RangeChoice } from '../model/ranges.ts';
import { RangeChooser } from '../shared/RangeChooser.tsx';
import { ScopePicker } from '../shared/ScopePicker.tsx';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const STATUSES = [
  '2xx',
  '3xx',
  '4xx',
  '5xx',
  '200',
  '301',
  '302',
  '304',
  '400',
  '403',
  '404',
  '429',
  '499',
  '500',
  '502',
  '503',
  '504',
];
const CACHE_STATUSES = ['HIT', 'MISS', 'EXPIRED', 'STALE', 'UPDATING', 'REVALIDATED', 'BYPASS'];

export type FilterFields = Omit<AccessLogFilter, 'from' | 'to'>;

/** Site or group, range, client address or CIDR, URL, status, method, cache status, country and node. */
export const AccessLogFilters = ({
  filter,
  range,
  onChange,
  onRange,
}: {
  filter: FilterFields;
  range: RangeChoice;
  onChange: (change: FilterFields) => void;
  onRange: (range: RangeChoice) => void;
}) => {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const select = (label: string, values: string[], value: string | undefined, change: (value?: string) => void) => (
    <Select<string>
      allowClear
      aria-label={label}
      placeholder={label}
      style={{ width: 130 }}
      value={value}
      onChange={(next) => change(next)}
      options={values.map((option) => ({ value: option, label: option }))}
    />
  );
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }} data-testid="access-log-filters">
      <ScopePicker
        scope={{ site_id: filter.site_id, group_id: filter.group_id }}
        onChange={(scope) => onChange({ site_id: scope.site_id, group_id: scope.group_id })}
      />
      <RangeChooser range={range} onChange={onRange} />
      <AddressSearch aria-label={t('monitor.accessLog.ip')} accepts={isCidr} onSearch={(ip) => onChange({ ip })} />
      <Input.Search
        allowClear
        aria-label={t('monitor.accessLog.url')}
        placeholder={t('monitor.accessLog.url')}
        maxLength={512}
        style={{ width: 240 }}
        onSearch={(text) => onChange({ url: text === '' ? undefined : text })}
      />
      <Select<'prefix' | 'contains'>
        aria-label={t('monitor.accessLog.urlMatch')}
        style={{ width: 120 }}
        value={filter.url_match ?? 'prefix'}
        onChange={(url_match) => onChange({ url_match })}
        options={[
          { value: 'prefix', label: t('monitor.accessLog.prefix') },
          { value: 'contains', label: t('monitor.accessLog.contains') },
        ]}
      />
      {select(t('monitor.accessLog.status'), STATUSES, filter.status, (status) => onChange({ status }))}
      {select(t('monitor.accessLog.method'), METHODS, filter.method, (method) => onChange({ method }))}
      {select(t('monitor.accessLog.cacheStatus'), CACHE_STATUSES, filter.cache_status, (cache_status) =>
        onChange({ cache_status }),
      )}
      <Select<string>
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        aria-label={t('monitor.accessLog.country')}
        placeholder={t('monitor.accessLog.country')}
        style={{ width: 180 }}
        value={filter.country}
        onChange={(country) => onChange({ country })}
        options={countries}
      />
      <InputNumber<number>
        aria-label={t('monitor.accessLog.node')}
        placeholder={t('monitor.accessLog.node')}
        min={1}
        precision={0}
        style={{ width: 110 }}
        value={filter.node_id}
        onChange={(node) => onChange({ node_id: node ?? undefined })}
      />
    </div>
  );
};
