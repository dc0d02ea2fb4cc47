import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { limitsOfUserPackages } from './user-packages.repository.ts';

/**
 * Room in a user package for a new site or stream, or for more domains: checked inside the
 * transaction that writes them, after locking the package's row (a no-op UPDATE, which PostgreSQL
 * holds until commit and SQLite's single writer implies), so two sites created at once cannot both
 * take the last place.
 */

type Trx = Transaction<Database>;

export interface Need {
  sites?: number;
  domains?: number;
  streams?: number;
}

/**
 * The user package a new site or stream of `userId` counts against: the one asked for, else the
 * user's only active package; null when the user has no package at all (made before packages, or
 * an operator's own account). Refuses with the limit named when the package has no room.
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
    if (active.length === 0) return null;
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
  const full = (what: string, limit: number, used: number) =>
    new AppError('limit_reached', `user_package_id: package ${row.name} allows ${limit} ${what}; ${used} are used`);
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
