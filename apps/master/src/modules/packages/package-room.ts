import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { readSetting } from '../settings/settings.service.ts';
import { limitsOfUserPackages } from './user-packages.repository.ts';

/**
 * Room in a user package for a new site or stream, or for more domains: checked inside the
 * transaction that writes them, after locking the package's row (a no-op UPDATE, which PostgreSQL
 * holds until commit and SQLite's single writer implies), so two sites created at once cannot both
 * take the last place.
 */

type Trx = Transaction<Database>;

/** The limits of a package a new site, domain or stream can reach (`limit` of `limit_reached`). */
export type RoomLimit = 'sites' | 'domains' | 'streams' | 'ports';

export interface Need {
  sites?: number;
  domains?: number;
  streams?: number;
}

/** Whether an account needs an active package to create a site or a stream. */
export interface PackageNeed {
  /** The `require_package` setting is on and the account is a customer (type 2) not exempt. */
  required: boolean;
  /** The account's `package_exempt` flag. */
  exempt: boolean;
}

/**
 * Whether packages limit the account: a customer (type 2) not marked `package_exempt`; operators'
 * own accounts are never limited. `exempt`: the account's flag.
 */
export async function packageLimitedAccount(
  db: Kysely<Database>,
  userId: number,
): Promise<{ limited: boolean; exempt: boolean }> {
  const user = await db
    .selectFrom('users')
    .select(['type', 'package_exempt'])
    .where('id', '=', userId)
    .executeTakeFirst();
  const exempt = user?.package_exempt === 1;
  return { limited: user?.type === 2 && !exempt, exempt };
}

export async function packageNeedOf(db: Kysely<Database>, userId: number): Promise<PackageNeed> {
  const { limited, exempt } = await packageLimitedAccount(db, userId);
  if (!limited) return { required: false, exempt };
  return { required: await readSetting(db, 'require_package'), exempt };
}

/**
 * The user package a new site or stream of `userId` counts against: the one asked for, else the
 * user's only active package; null when the user has no active package and needs none (an
 * operator's own account, an exempt one, or `require_package` off). A customer who needs one and
 * has none active (none, or only suspended or expired ones) is refused with `package_required`.
 * Refuses with the limit named when the package has no room.
 */
export async function claimRoom(
  trx: Trx,
  userId: number,
  requested: number | undefined,
  need: Need,
  now = Date.now(),
): Promise<number | null> {
  let id = requested;
  if (id === undefined) {
    const active = await trx
      .selectFrom('user_packages')
      .select('id')
      .where('user_id', '=', userId)
      .where('state', '=', 'active')
      .where('end_at', '>', now)
      .execute();
    if (active.length === 0) {
      if ((await packageNeedOf(trx, userId)).required) {
        throw new AppError(
          'package_required',
          'an active package is needed to create a site or stream; buy one first',
          {},
        );
      }
      return null;
    }
    if (active.length > 1) {
      throw invalidParam(
        'user_package_id',
        `you have ${active.length} active packages: choose the one it counts against`,
      );
    }
    id = active[0]?.id ?? 0;
  }
  await checkRoom(trx, userId, id, need, now);
  return id;
}

/** Checks (after locking the package) that `need` more fits in user package `id` of `userId`. */
export async function checkRoom(trx: Trx, userId: number, id: number, need: Need, now = Date.now()) {
  await trx
    .updateTable('user_packages')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .execute();
  const row = await trx
    .selectFrom('user_packages')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `user_package_id: user package ${id} does not exist`);
  if (row.state === 'suspended') throw invalidParam('user_package_id', `package ${row.name} is suspended`);
  if (row.end_at <= now) throw invalidParam('user_package_id', `package ${row.name} has expired; renew it first`);
  const limits = (await limitsOfUserPackages(trx, [row], now)).get(row.id);
  if (!limits) return;
  const count = async (table: 'sites' | 'streams') =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_package_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const full = (what: RoomLimit, limit: number, used: number) =>
    new AppError('limit_reached', `user_package_id: package ${row.name} allows ${limit} ${what}; ${used} are used`, {
      limit: what,
      allowed: limit,
      used,
      package: row.name,
    });
  if (need.sites) {
    const used = await count('sites');
    if (used + need.sites > limits.max_sites) throw full('sites', limits.max_sites, used);
  }
  if (need.domains) {
    const domains = await trx
      .selectFrom('site_domains')
      .innerJoin('sites', 'sites.id', 'site_domains.site_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('sites.user_package_id', '=', id)
      .executeTakeFirstOrThrow();
    const used = Number(domains.n);
    if (used + need.domains > limits.max_domains) throw full('domains', limits.max_domains, used);
  }
  if (need.streams) {
    const used = await count('streams');
    if (used + need.streams > limits.max_streams) throw full('streams', limits.max_streams, used);
    if (used + need.streams > limits.max_ports) throw full('ports', limits.max_ports, used);
  }
}
