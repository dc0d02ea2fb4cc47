import type { Site } from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Select from 'antd/es/select';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../../sites/api.ts';

interface SitePickerProps {
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  /** Offers "all sites" as site 0 (an admin's global ban). */
  allowAll?: boolean;
  allowClear?: boolean;
  style?: CSSProperties;
  'aria-label': string;
}

/** Picks one of the user's sites, searched by domain on the server (users may have many thousands). */
export const SitePicker = ({
  value,
  onChange,
  allowAll = false,
  allowClear,
  style,
  'aria-label': label,
}: SitePickerProps) => {
  const { t } = useTranslation();
  const http = useHttp();
  const [search, setSearch] = useState('');
  const sites = useQuery({
    queryKey: ['sites', 'pick', search],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<Site>>('/v1/sites', { query: { page: 1, limit: 20, domain: search || undefined }, signal }),
  });
  const found = sites.data?.list ?? [];
  // A site picked elsewhere (a ban count, say) that the current search does not list is read by id.
  const missing = value !== undefined && value !== null && value !== 0 && !found.some((site) => site.id === value);
  const picked = useQuery({
    queryKey: ['sites', 'one', value],
    enabled: missing,
    queryFn: ({ signal }) => http.get<Site>(`/v1/sites/${value}`, { signal }),
  });
  const listed = missing && picked.data ? [picked.data, ...found] : found;
  const options = listed.map((site) => ({ value: site.id, label: site.domains[0] ?? `#${site.id}` }));
  return (
    <Select<number>
      aria-label={label}
      placeholder={label}
      style={style}
      allowClear={allowClear}
      showSearch={{ filterOption: false, onSearch: (text) => setSearch(text.trim()) }}
      loading={sites.isFetching}
      value={value ?? undefined}
      onChange={(next: number | undefined) => onChange?.(next)}
      options={allowAll ? [{ value: 0, label: t('protection.allSites') }, ...options] : options}
    />
  );
};
