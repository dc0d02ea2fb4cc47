import { type SystemSettingGroup, systemSettingKey } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type SettingValues = Record<string, unknown>;

const keyOf = (group: SystemSettingGroup) => ['configs', systemSettingKey(group)] as const;

/** GET /v1/configs/global-0-system-{group}: one tab's settings, secrets masked. */
export const useSettingGroup = (group: SystemSettingGroup) => {
  const http = useHttp();
  return useQuery({
    queryKey: keyOf(group),
    queryFn: ({ signal }) => http.get<SettingValues>(`/v1/configs/${systemSettingKey(group)}`, { signal }),
  });
};

export const useSettingActions = (group: SystemSettingGroup) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const path = `/v1/configs/${systemSettingKey(group)}`;
  const keep = (values: SettingValues) => queryClient.setQueryData(keyOf(group), values);
  return {
    /** PUT: the saved settings come back, secrets masked. */
    save: async (values: SettingValues) => keep(await http.put<SettingValues>(path, values)),
    /** DELETE: back to the defaults. */
    reset: async () => keep(await http.delete<SettingValues>(path)),
  };
};
