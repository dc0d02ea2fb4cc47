import type { Site } from '@rampart/contracts';
import { type Kysely, sql } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import {
  CNAME_CONTEXT_VALUES,
  defaultCnameDomainQuery,
  defaultLineGroupQuery,
  type SiteCname,
} from '../cname/cname.repository.ts';
import { systemConfigText, systemConfigTextValues } from '../settings/settings.repository.ts';
import { settingTab, storedSetting } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import { type DomainProofRow, domainProofsOfSites } from './domain-proofs.repository.ts';
import { listedSettingsOf } from './listed-settings.ts';
import { type DomainSearch, matchesDomain, planDomainSearch } from './site-search.repository.ts';
import { type PresentedSiteRow, presentSite, SEARCH_COUNT_CAP } from './sites.repository.ts';

export type SiteSort = 'id' | '-id' | 'domain' | '-domain' | 'updated_at' | '-updated_at';

export interface SiteFilter {
  domain?: string | undefined;
  groupId?: number | undefined;
  enabled?: boolean | undefined;
  https?: boolean | undefined;
  certId?: number | undefined;
  userId?: number | undefined;
  sort?: SiteSort | undefined;
}

/** The columns a listed site is presented from, and its owner's account. */
export type ListedSiteRow = PresentedSiteRow & { user_account: string | null };

/** One page of sites as read: its rows, the total, what their CNAME targets depend on, the proof setting. */
export interface SitePage {
  rows: ListedSiteRow[];
  total: number;
  /** `total` is the search's count cap, not the count. */
  capped: boolean;
  cname: SiteCname;
  /** The domain_proof setting. */
  domainProofRequired: boolean;
  /** Whether the owners listed (one user, or every user) have any domain proof at all. */
  anyProofs: boolean;
}

/** Which sites a list reads: every condition but the domain search, each set or not. */
interface SiteScope {
  userId: number | undefined;
  groupId: number | undefined;
  enabled: boolean | undefined;
  https: boolean | undefined;
  certId: number | undefined;
}

const scopeOf = (owner: Owner, filter: SiteFilter): SiteScope => ({
  userId: owner.kind === 'user' ? owner.userId : filter.userId,
  groupId: filter.groupId,
  enabled: filter.enabled,
  https: filter.https,
  certId: filter.certId,
});

/** The scope's values in the order its conditions bind them. */
const scopeValues = (scope: SiteScope): unknown[] =>
  [
    scope.userId,
    scope.groupId,
    scope.enabled === undefined ? undefined : scope.enabled ? 1 : 0,
    scope.https === undefined ? undefined : scope.https ? 1 : 0,
    scope.certId,
  ].filter((value) => value !== undefined);

/** Which conditions the scope sets: its SQL, with the sort, is the same for every scope of one shape. */
const scopeShape = (scope: SiteScope) =>
  [scope.userId, scope.groupId, scope.enabled, scope.https, scope.certId]
    .map((value) => (value === undefined ? 0 : 1))
    .join('');

/** No condition but the owner: the total is the count the triggers keep, not a count of the rows. */
const keptTotal = (scope: SiteScope) =>
  scope.groupId === undefined && scope.enabled === undefined && scope.https === undefined && scope.certId === undefined;

const scopedSites = (db: Kysely<Database>, scope: SiteScope, search?: DomainSearch) =>
  db
    .selectFrom('sites')
    .$if(scope.userId !== undefined, (qb) => qb.where('sites.user_id', '=', scope.userId ?? 0))
    .$if(scope.groupId !== undefined, (qb) => qb.where('sites.group_id', '=', scope.groupId ?? 0))
    .$if(scope.enabled !== undefined, (qb) => qb.where('sites.enabled', '=', scope.enabled ? 1 : 0))
    .$if(scope.https !== undefined, (qb) => qb.where('sites.https', '=', scope.https ? 1 : 0))
    .$if(scope.certId !== undefined, (qb) => qb.where('sites.cert_id', '=', scope.certId ?? 0))
    .$call((qb) => (search ? qb.where(matchesDomain(search)) : qb));

const SORT_COLUMNS = { id: 'sites.id', domain: 'sites.primary_domain', updated_at: 'sites.updated_at' } as const;

const pageQuery = (
  db: Kysely<Database>,
  scope: SiteScope,
  sort: SiteSort,
  limit: number,
  offset: number,
  search?: DomainSearch,
) =>
  scopedSites(db, scope, search)
    .leftJoin('users', 'users.id', 'sites.user_id')
    .select([
      'sites.id',
      'sites.user_id',
      'sites.group_id',
      'sites.line_group_id',
      'sites.name',
      'sites.settings',
      'sites.created_at',
      'sites.updated_at',
      'users.username as user_account',
    ])
    .orderBy(SORT_COLUMNS[sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS], sort.startsWith('-') ? 'desc' : 'asc')
    .orderBy('sites.id', 'desc')
    .limit(limit)
    .offset(offset);

/** Where the domain_proof setting may be stored besides its own entry (its own again when no tab holds it). */
const DOMAIN_PROOF_TAB = settingTab('domain_proof') ?? 'domain_proof';

/** A stored config's text parsed, as readSystemConfigs parses it; undefined when none is stored. */
const parsed = (text: string | null | undefined): unknown => (text == null ? undefined : JSON.parse(text));

/**
 * In one statement: the total (kept, counted, or counted up to the search's cap), the two facts a
 * site's CNAME target depends on (cname.repository's queries, which siteCnameContext runs) and the
 * stored texts of the domain_proof setting (resolved by settings.service's rule).
 */
const contextQuery = (db: Kysely<Database>, scope: SiteScope, search?: { domains: DomainSearch; cap: number }) =>
  db.selectNoFrom((eb) => [
    (search
      ? eb
          .selectFrom(
            scopedSites(db, scope, search.domains)
              .select(sql<number>`1`.as('one'))
              .limit(search.cap + 1)
              .as('matched'),
          )
          .select((inner) => inner.fn.countAll<number | string>().as('n'))
      : !keptTotal(scope)
        ? scopedSites(db, scope).select((inner) => inner.fn.countAll<number | string>().as('n'))
        : scope.userId === undefined
          ? eb.selectFrom('site_counts').select(sql<number | string>`coalesce(sum(sites), 0)`.as('n'))
          : eb.selectFrom('site_counts').select('sites as n').where('user_id', '=', scope.userId)
    ).as('total'),
    defaultCnameDomainQuery(db).as('cname_domain'),
    defaultLineGroupQuery(db).as('default_line_group'),
    systemConfigText(db, 'domain_proof').as('domain_proof'),
    systemConfigText(db, DOMAIN_PROOF_TAB).as('domain_proof_tab'),
    eb
      .selectFrom('domain_proofs')
      .select('user_id')
      .$if(scope.userId !== undefined, (qb) => qb.where('user_id', '=', scope.userId ?? 0))
      .limit(1)
      .as('proof_owner'),
  ]);

/** The values the context binds: the total's conditions, then the rest's. */
const contextValues = (scope: SiteScope) => [
  ...scopeValues(scope),
  ...CNAME_CONTEXT_VALUES,
  ...systemConfigTextValues('domain_proof'),
  ...systemConfigTextValues(DOMAIN_PROOF_TAB),
  ...(scope.userId === undefined ? [] : [scope.userId]),
  1,
];

type PageRun = ReturnType<typeof preparedPage>;
type ContextRun = ReturnType<typeof preparedContext>;
const preparedPage = () => prepared(pageQuery, (scope, _sort, limit, offset) => [...scopeValues(scope), limit, offset]);
const preparedContext = () =>
  prepared((db: Kysely<Database>, scope: SiteScope) => contextQuery(db, scope), contextValues);

/** The page and context queries without a domain search, compiled once for each shape of scope and sort. */
const pages = new Map<string, PageRun>();
const contexts = new Map<string, ContextRun>();

function compiledFor<T>(runs: Map<string, T>, shape: string, make: () => T): T {
  let run = runs.get(shape);
  if (run === undefined) {
    run = make();
    runs.set(shape, run);
  }
  return run;
}

/**
 * A page of the owner's sites with its total and CNAME context, in two statements (and a search's
 * plan); the domain filter matches any of a site's domains by substring (any case). With a domain
 * filter the total stops at `countCap` (then `capped` is true).
 */
export async function readSitePage(
  db: Kysely<Database>,
  owner: Owner,
  filter: SiteFilter,
  page: number,
  limit: number,
  countCap = SEARCH_COUNT_CAP,
): Promise<SitePage> {
  const scope = scopeOf(owner, filter);
  const sort = filter.sort ?? '-id';
  const offset = (page - 1) * limit;
  const shape = scopeShape(scope);
  const search = filter.domain ? await planDomainSearch(db, filter.domain) : undefined;
  const [rows, context] = await Promise.all([
    search
      ? pageQuery(db, scope, sort, limit, offset, search).execute()
      : compiledFor(pages, `${shape} ${sort}`, preparedPage)(db, scope, sort, limit, offset),
    search
      ? contextQuery(db, scope, { domains: search, cap: countCap }).execute()
      : compiledFor(contexts, shape, preparedContext)(db, scope),
  ]);
  const [row] = context;
  const total = Number(row?.total ?? 0);
  return {
    rows,
    total: search && total > countCap ? countCap : total,
    capped: search !== undefined && total > countCap,
    cname: { domain: row?.cname_domain ?? '', defaultLineGroup: (row?.default_line_group ?? null) !== null },
    domainProofRequired: storedSetting('domain_proof', parsed(row?.domain_proof), parsed(row?.domain_proof_tab)),
    anyProofs: (row?.proof_owner ?? null) !== null,
  };
}

/** A page of the owner's sites presented (without their domain proofs), as `{list, total}`. */
export async function listSites(
  db: Kysely<Database>,
  owner: Owner,
  filter: SiteFilter,
  page: number,
  limit: number,
  countCap = SEARCH_COUNT_CAP,
): Promise<{ list: (Site & { user_account: string | null })[]; total: number; total_capped?: true }> {
  const read = await readSitePage(db, owner, filter, page, limit, countCap);
  const list = read.rows.map((row) => ({
    ...presentSite(row, read.cname, listedSettingsOf(row.id, row.settings).settings),
    user_account: row.user_account,
  }));
  return read.capped ? { list, total: read.total, total_capped: true } : { list, total: read.total };
}

/** The proofs of a page's sites (domainProofsOfSites); none are read when their owners have none. */
export const proofsOfPage = (db: Kysely<Database>, page: SitePage): Promise<ReadonlyMap<string, DomainProofRow>> =>
  page.anyProofs
    ? domainProofsOfSites(
        db,
        page.rows.map((row) => ({
          user_id: row.user_id,
          domains: listedSettingsOf(row.id, row.settings).settings.domains,
        })),
      )
    : Promise.resolve(new Map());
