import type { GeoipDatabase } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { GeoipDatabase } from '@rampart/contracts';

const PATH = '/v1/geoip';
const KEY = ['geoip'];

/** The GeoIP database the edges use now (null: none). */
export const useGeoip = () => {
  const http = useHttp();
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => http.get<GeoipDatabase | null>(PATH, { signal }) });
};

/** Upload a .mmdb in place of the current database, or go back to the bundled one. */
export const useGeoipActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const shown = (database: GeoipDatabase) => {
    queryClient.setQueryData(KEY, database);
    return database;
  };
  return {
    upload: async (file: File, options?: RequestOptions) =>
      shown(
        await http.request<GeoipDatabase>('POST', PATH, {
          ...options,
          query: { name: uploadName(file.name) },
          body: file,
        }),
      ),
    restore: async () => shown(await http.request<GeoipDatabase>('DELETE', PATH)),
  };
};

/** The file's name as the master takes it: letters, digits, spaces and . _ -, at most 128. */
export const uploadName = (name: string): string => {
  const kept = name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 128);
  return kept === '' ? 'upload.mmdb' : kept;
};
