import type { Ban, BanListQuery, BanSource } from '@rampart/contracts';
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { BansTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import { iso } from './cc-owner.ts';

export type BanRow = Selectable<BansTable>;

export const presentBan = (row: BanRow): Ban => ({
  id: row.id,
  source: row.source as BanSource,
  site_id: row.site_id,
  cidr: row.cidr,
  reason: row.reason,
  node_id: row.node_id,
  group_id: row.group_id,
  match_id: row.match_id,
  filter_id: row.filter_id,
  created_at: iso(row.created_at),
  expires_at: iso(row.expires_at),
  lifted_at: row.lifted_at === null ? null : iso(row.lifted_at),
});

/** Bans the caller may see: a user those of their own sites (not global ones), an admin every ban. */
function visibleBans(db: Kysely<Database>, owner: Owner) {
  return db
    .selectFrom('bans')
    .$if(owner.kind === 'user', (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('sites')
            .select('sites.id')
            .whereRef('sites.id', '=', 'bans.site_id')
            .where('sites.user_id', '=', owner.userId),
        ),
      ),
    );
}

const current = (now: number) => (eb: ExpressionBuilder<Database, 'bans'>) =>
  eb.and([eb('bans.lifted_at', 'is', null), eb('bans.expires_at', '>', now)]);
const ended = (now: number) => (eb: ExpressionBuilder<Database, 'bans'>) =>
  eb.or([eb('bans.lifted_at', 'is not', null), eb('bans.expires_at', '<=', now)]);

/** Current bans (`state` current) or history (expired or lifted), newest first. */
export async function listBans(
  db: Kysely<Database>,
  owner: Owner,
  state: 'current' | 'history',
  query: BanListQuery,
  now: number,
) {
  const { page = 1, limit = 20, site_id, ip } = query;
  const scoped = visibleBans(db, owner)
    .where(state === 'current' ? current(now) : ended(now))
    .$if(site_id !== undefined, (qb) => qb.where('bans.site_id', '=', site_id ?? 0))
    .$if(ip !== undefined, (qb) => qb.where('bans.cidr', '=', (ip ?? '').toLowerCase()));
  const ordered =
    state === 'current'
      ? scoped.orderBy('bans.created_at', 'desc')
      : scoped.orderBy(sql`coalesce(bans.lifted_at, bans.expires_at)`, 'desc');
  const [rows, count] = await Promise.all([
    ordered
      .selectAll('bans')
      .orderBy('bans.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentBan), total: Number(count.n) };
}

/** Current bans per site (distinct addresses), for the caller's sites. */
export async function countBans(db: Kysely<Database>, owner: Owner, now: number) {
  const rows = await visibleBans(db, owner)
    .where(current(now))
    .select((eb) => ['bans.site_id', eb.fn.count<number>('bans.cidr').distinct().as('count')])
    .groupBy('bans.site_id')
    .orderBy('bans.site_id')
    .execute();
  return rows.map((row) => ({ site_id: row.site_id, count: Number(row.count) }));
}

/** The current bans of one address or range on one site, of either source. */
export const currentBansOf = (db: Kysely<Database>, siteId: number, cidr: string, now: number) =>
  db
    .selectFrom('bans')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('cidr', '=', cidr)
    .where(current(now))
    .execute();

export interface ManualBan {
  siteId: number;
  cidr: string;
  reason: string;
  createdBy: number;
  expiresAt: number;
}

/** A manual ban of an address already banned by hand is renewed rather than listed twice. */
export async function upsertManualBan(db: Kysely<Database>, ban: ManualBan, now: number) {
  const running = await db
    .updateTable('bans')
    .set({ reason: ban.reason, expires_at: ban.expiresAt, created_by: ban.createdBy })
    .where('source', '=', 'manual')
    .where('site_id', '=', ban.siteId)
    .where('cidr', '=', ban.cidr)
    .where(current(now))
    .returningAll()
    .executeTakeFirst();
  if (running) return running;
  return db
    .insertInto('bans')
    .values({
      source: 'manual',
      site_id: ban.siteId,
      cidr: ban.cidr,
      reason: ban.reason,
      node_id: null,
      group_id: 0,
      match_id: 0,
      filter_id: 0,
      created_by: ban.createdBy,
      created_at: now,
      expires_at: ban.expiresAt,
      lifted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function liftBans(db: Kysely<Database>, ids: readonly number[], now: number) {
  if (ids.length > 0) await db.updateTable('bans').set({ lifted_at: now }).where('id', 'in', ids).execute();
}

export interface EdgeBanSeen {
  nodeId: number;
  siteId: number;
  ip: string;
  reason: string;
  groupId: number;
  matchId: number;
  filterId: number;
  createdAt: number;
  expiresAt: number;
}

const CHUNK = 500;

/** Bans edges report in their block logs; one seen again (a batch sent twice) is stored once. */
export async function insertEdgeBans(db: Kysely<Database>, bans: readonly EdgeBanSeen[]) {
  for (let i = 0; i < bans.length; i += CHUNK) {
    await db
      .insertInto('bans')
      .values(
        bans.slice(i, i + CHUNK).map((ban) => ({
          source: 'edge',
          site_id: ban.siteId,
          cidr: ban.ip,
          reason: ban.reason,
          node_id: ban.nodeId,
          group_id: ban.groupId,
          match_id: ban.matchId,
          filter_id: ban.filterId,
          created_by: 0,
          created_at: ban.createdAt,
          expires_at: ban.expiresAt,
          lifted_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['node_id', 'site_id', 'cidr', 'created_at']).doNothing())
      .execute();
  }
}
