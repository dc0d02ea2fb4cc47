import type { PackageAttachResult, UserPackageStanding } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from './catalogue.repository.ts';
import { packageNeedOf } from './package-room.ts';
import { featuresBeyond } from './site-features.ts';
import { limitsOfUserPackages } from './user-packages.repository.ts';

/**
 * Sites and streams made without a package (before packages, while exempt, or while the setting
 * was off) join the package their owner buys: when the owner then has exactly one active package,
 * they are attached in id order, each one that still fits its limits and uses no site feature the
 * package does not include (such a site stays without a package and is named in `not_attached`).
 */

type Trx = Transaction<Database>;

export const NOTHING_ATTACHED: PackageAttachResult = {
  attached: { sites: 0, streams: 0 },
  not_attached: { sites: [], streams: [] },
};

/** Whether the user has a site or stream that counts against no package. */
export async function hasUnattached(db: Db, userId: number): Promise<boolean> {
  const [site, stream] = await Promise.all([
    db
      .selectFrom('sites')
      .select('id')
      .where('user_id', '=', userId)
      .where('user_package_id', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('streams')
      .select('id')
      .where('user_id', '=', userId)
      .where('user_package_id', 'is', null)
      .executeTakeFirst(),
  ]);
  return Boolean(site || stream);
}

const activePackages = (db: Db, userId: number, now: number) =>
  db
    .selectFrom('user_packages')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .where('end_at', '>', now)
    .execute();

/**
 * Attaches the user's unattached sites and streams to their one active package, inside the caller's
 * transaction (which carries config `version`: what the edges serve of them changes). Nothing
 * happens when the user has no active package or several.
 */
export async function attachUnattached(
  trx: Trx,
  userId: number,
  version: number,
  now = Date.now(),
): Promise<PackageAttachResult> {
  const active = await activePackages(trx, userId, now);
  const [target] = active;
  if (!target || active.length !== 1) return NOTHING_ATTACHED;
  // Lock the package's row as package-room.ts does, so a site created at once cannot overfill it.
  await trx
    .updateTable('user_packages')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', target.id)
    .execute();
  const limits = (await limitsOfUserPackages(trx, [target], now)).get(target.id);
  if (!limits) return NOTHING_ATTACHED;
  const count = async (table: 'sites' | 'streams') =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_package_id', '=', target.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const domainsUsed = Number(
    (
      await trx
        .selectFrom('site_domains')
        .innerJoin('sites', 'sites.id', 'site_domains.site_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('sites.user_package_id', '=', target.id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const used = { sites: await count('sites'), domains: domainsUsed, streams: await count('streams') };

  const sites = await trx
    .selectFrom('sites')
    .leftJoin('site_domains', 'site_domains.site_id', 'sites.id')
    .select(['sites.id', 'sites.name', 'sites.settings', (eb) => eb.fn.count('site_domains.domain').as('domains')])
    .where('sites.user_id', '=', userId)
    .where('sites.user_package_id', 'is', null)
    .groupBy(['sites.id', 'sites.name', 'sites.settings'])
    .orderBy('sites.id')
    .execute();
  const siteIds: number[] = [];
  const result: PackageAttachResult = { attached: { sites: 0, streams: 0 }, not_attached: { sites: [], streams: [] } };
  for (const site of sites) {
    const domains = Number(site.domains);
    const fits = used.sites + 1 <= limits.max_sites && used.domains + domains <= limits.max_domains;
    if (fits && (await featuresBeyond(trx, { ...site, user_id: userId }, target.id)).length === 0) {
      used.sites += 1;
      used.domains += domains;
      siteIds.push(site.id);
    } else {
      result.not_attached.sites.push(site.name);
    }
  }
  const streams = await trx
    .selectFrom('streams')
    .select(['id', 'name', 'listen_port'])
    .where('user_id', '=', userId)
    .where('user_package_id', 'is', null)
    .orderBy('id')
    .execute();
  const streamIds: number[] = [];
  for (const stream of streams) {
    if (used.streams + 1 <= limits.max_streams && used.streams + 1 <= limits.max_ports) {
      used.streams += 1;
      streamIds.push(stream.id);
    } else {
      result.not_attached.streams.push(stream.name || String(stream.listen_port));
    }
  }
  if (siteIds.length > 0) {
    await trx
      .updateTable('sites')
      .set({ user_package_id: target.id, version, updated_at: now })
      .where('id', 'in', siteIds)
      .execute();
  }
  if (streamIds.length > 0) {
    await trx
      .updateTable('streams')
      .set({ user_package_id: target.id, version, updated_at: now })
      .where('id', 'in', streamIds)
      .execute();
  }
  result.attached = { sites: siteIds.length, streams: streamIds.length };
  return result;
}

/** GET /v1/user-packages/standing: whether the account needs a package, and what counts against none. */
export async function standingOf(db: Kysely<Database>, userId: number, now = Date.now()): Promise<UserPackageStanding> {
  const unattached = (table: 'sites' | 'streams') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('user_package_id', 'is', null)
      .executeTakeFirstOrThrow();
  const [need, active, sites, streams] = await Promise.all([
    packageNeedOf(db, userId),
    activePackages(db, userId, now),
    unattached('sites'),
    unattached('streams'),
  ]);
  return {
    required: need.required,
    exempt: need.exempt,
    unlimited: !need.required,
    active: active.length,
    unattached: { sites: Number(sites.n), streams: Number(streams.n) },
  };
}
