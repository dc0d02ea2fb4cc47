import type {
  Acl,
  AclEntry,
  Ban,
  BanCount,
  BanListQuery,
  BlockLogEntry,
  BlockLogQuery,
  CcFilter,
  CcMatch,
  CcRuleGroup,
  CreateBanBody,
  CreateCcFilterBody,
  CreateCcMatchBody,
  CreateCcRuleGroupBody,
  LiftBanBody,
  RulePreview,
  RulePreviewBody,
  Site,
  SiteProtection,
  UpdateCcRuleGroupBody,
  WafDefaults,
} from '@rampart/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../sites/api.ts';

export type { Acl, Ban, BanCount, BlockLogEntry, WafDefaults };

export type MatchRow = CcMatch;
export type FilterRow = CcFilter;
export type RuleGroupRow = CcRuleGroup;

/** Rows of user 0 are system rows: every user may use them, only admins change them. */
export const isSystemRow = (row: { user_id: number }): boolean => row.user_id === 0;

/** A page of a list call; the query sent with it (page and limit always set). */
export type PagedQuery<Q> = Q & { page: number; limit: number };
export type BanQuery = PagedQuery<Omit<BanListQuery, 'page' | 'limit'>>;
export type BlockLogFilter = Omit<BlockLogQuery, 'page' | 'limit'>;

export const OBJECT_PATHS = {
  matches: '/v1/cc-matchs',
  filters: '/v1/cc-filters',
  groups: '/v1/cc-rules',
} as const;
export type ObjectKind = keyof typeof OBJECT_PATHS;
/** Create bodies; an update sends the same fields without `system` and `user_id` (who owns a row stays). */
export interface ObjectTypes {
  matches: { row: MatchRow; body: CreateCcMatchBody };
  filters: { row: FilterRow; body: CreateCcFilterBody };
  groups: { row: RuleGroupRow; body: CreateCcRuleGroupBody };
}

export interface ObjectQuery {
  page: number;
  limit: number;
  name?: string;
}

const withoutCreator = <B extends { system?: boolean | undefined; user_id?: number | undefined }>(body: B) => {
  const { system: _system, user_id: _userId, ...update } = body;
  return update;
};

const BAN_PATH = '/v1/monitor/site/blackip';
/** Enough for a picker: users keep a few dozen matches, filters and groups. */
const ALL = { page: 1, limit: 1000 };

/** One page of matches, filters or rule groups, searched by name on the server. */
export const useObjectList = <K extends ObjectKind>(kind: K, query: ObjectQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', kind, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<ObjectTypes[K]['row']>>(OBJECT_PATHS[kind], { query: { ...query }, signal }),
  });
};

/** Every match, filter or rule group the user can pick (their own and the system's). */
export const useAllObjects = <K extends ObjectKind>(kind: K) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', kind, 'all'],
    queryFn: ({ signal }) => http.get<ListPage<ObjectTypes[K]['row']>>(OBJECT_PATHS[kind], { query: ALL, signal }),
    select: (answer) => answer.list,
  });
};

/** Create, update and delete (one or a batch); each refreshes that kind's queries. */
export const useObjectActions = <K extends ObjectKind>(kind: K) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const base = OBJECT_PATHS[kind];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['protection', kind] });
  const after = async <R>(call: Promise<R>): Promise<R> => {
    const answer = await call;
    await refresh();
    return answer;
  };
  type Row = ObjectTypes[K]['row'];
  type Body = ObjectTypes[K]['body'];
  return {
    create: (body: Body, options?: RequestOptions) => after(http.post<Row>(base, body, options)),
    update: (id: number, body: Body, options?: RequestOptions) =>
      after(http.put<Row>(`${base}/${id}`, withoutCreator(body), options)),
    remove: (id: number) => after(http.delete<unknown>(`${base}/${id}`)),
    removeMany: (ids: number[]) => after(http.put<unknown>(base, { ids, action: 'delete' })),
  };
};

export const aclKey = (siteId: number) => ['protection', 'acl', siteId] as const;

/** The site's ACL, or null when it has none yet. */
export const fetchAcl = async (http: HttpClient, siteId: number, signal?: AbortSignal): Promise<Acl | null> =>
  (await http.get<ListPage<Acl>>('/v1/acls', { query: { site_id: siteId }, signal })).list[0] ?? null;

export const useSiteAcl = (siteId: number) => {
  const http = useHttp();
  return useQuery({ queryKey: aclKey(siteId), queryFn: ({ signal }) => fetchAcl(http, siteId, signal) });
};

/** Stores a site's ACL entries: creates the ACL, replaces its entries, or deletes it when empty. */
export const saveAcl = async (
  http: HttpClient,
  siteId: number,
  current: Acl | null,
  entries: AclEntry[],
  options?: RequestOptions,
): Promise<void> => {
  if (current && entries.length === 0) await http.delete(`/v1/acls/${current.id}`, options);
  else if (current) await http.put(`/v1/acls/${current.id}`, { entries }, options);
  else if (entries.length > 0) await http.post('/v1/acls', { site_id: siteId, entries }, options);
};

/** PUT /v1/sites/{id} with only the protection section. */
export const saveSiteProtection = (
  http: HttpClient,
  siteId: number,
  protection: SiteProtection,
  options?: RequestOptions,
) => http.put<Site>(`/v1/sites/${siteId}`, { protection }, options);

export const useBans = (query: BanQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', 'bans', 'current', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<Ban>>(BAN_PATH, { query: { ...query }, signal }),
  });
};

export const useBanHistory = (query: BanQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', 'bans', 'history', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<Ban>>('/v1/monitor/site/history-blackip', { query: { ...query }, signal }),
  });
};

export const useBanCounts = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', 'bans', 'count'],
    queryFn: ({ signal }) => http.get<ListPage<BanCount>>('/v1/monitor/site/blackip-count', { signal }),
    select: (answer) => answer.list,
  });
};

export const useBanActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['protection', 'bans'] });
  return {
    ban: async (body: CreateBanBody, options?: RequestOptions) => {
      await http.post<Ban>(BAN_PATH, body, options);
      await refresh();
    },
    unban: async (body: LiftBanBody) => {
      await http.delete(BAN_PATH, { body });
      await refresh();
    },
  };
};

export const useBlockLog = (query: PagedQuery<BlockLogFilter>) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', 'block-log', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<ListPage<BlockLogEntry>>('/v1/monitor/site/block-log', { query: { ...query }, signal }),
  });
};

export const WAF_DEFAULTS_PATH = '/v1/configs/global-0-waf-defaults';

/** The config's value, {mode, paranoia, exclusions, inspect_static?, static_exts?}; GET and PUT both answer it. */
export const useWafDefaults = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['protection', 'waf-defaults'],
    queryFn: ({ signal }) => http.get<WafDefaults>(WAF_DEFAULTS_PATH, { signal }),
  });
};

export const saveWafDefaults = (http: HttpClient, waf: WafDefaults, options?: RequestOptions) =>
  http.put<WafDefaults>(WAF_DEFAULTS_PATH, waf, options);

/** Marks a system rule group as the one sites without a rule group run, or unmarks it (admins). */
export const useSetDefaultGroup = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (groupId: number, isDefault: boolean): Promise<void> => {
    const body: UpdateCcRuleGroupBody = { is_default: isDefault };
    await http.put(`${OBJECT_PATHS.groups}/${groupId}`, body);
    await queryClient.invalidateQueries({ queryKey: ['protection', 'groups'] });
  };
};

/** POST /v1/rules/preview: what a draft rule would have done to a site's recent traffic; nothing is saved. */
export const useRulePreview = () => {
  const http = useHttp();
  return useMutation({
    mutationFn: ({ body, options }: { body: RulePreviewBody; options?: RequestOptions }) =>
      http.post<RulePreview>('/v1/rules/preview', body, options),
  });
};
