import type {
  AgentMastersSettings,
  EdgeEnforcementSettings,
  EdgeErrorPages,
  EdgeNginxSettings,
  EdgeResSettings,
  NewSiteDefaults,
} from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type {
  AgentMastersSettings,
  EdgeEnforcementSettings,
  EdgeErrorPages,
  EdgeNginxSettings,
  EdgeResSettings,
  NewSiteDefaults,
};

/** The configs entries of the four pages (the resources page has three); GET, PUT and DELETE (back to the default) all answer the value. */
export const EDGE_CONFIG_KEYS = {
  nginx: 'global-0-edge-nginx',
  res: 'global-0-edge-res',
  defaults: 'global-0-site-defaults',
  errors: 'global-0-edge-error_pages',
  enforcement: 'global-0-edge-enforcement',
  masters: 'global-0-agent-masters',
} as const;
export type EdgeConfigName = keyof typeof EDGE_CONFIG_KEYS;

export interface EdgeConfigValues {
  nginx: EdgeNginxSettings;
  res: EdgeResSettings;
  defaults: NewSiteDefaults;
  errors: EdgeErrorPages;
  enforcement: EdgeEnforcementSettings;
  masters: AgentMastersSettings;
}

const pathOf = (name: EdgeConfigName) => `/v1/configs/${EDGE_CONFIG_KEYS[name]}`;
const keyOf = (name: EdgeConfigName) => ['edge-settings', name] as const;

export const useEdgeConfig = <N extends EdgeConfigName>(name: N) => {
  const http = useHttp();
  return useQuery({
    queryKey: keyOf(name),
    queryFn: ({ signal }) => http.get<EdgeConfigValues[N]>(pathOf(name), { signal }),
  });
};

/** Save (PUT) and reset (DELETE); each puts the answered value in the cache. */
export const useEdgeConfigActions = <N extends EdgeConfigName>(name: N) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const keep = (value: EdgeConfigValues[N]) => {
    queryClient.setQueryData(keyOf(name), value);
    return value;
  };
  return {
    save: async (value: EdgeConfigValues[N], options?: RequestOptions) =>
      keep(await http.put<EdgeConfigValues[N]>(pathOf(name), value, options)),
    reset: async () => keep(await http.delete<EdgeConfigValues[N]>(pathOf(name))),
  };
};
