import type { Term } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { debit } from '../billing/ledger.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Db } from './catalogue.repository.ts';
import { addTerms, termPrice } from './pricing.ts';

/**
 * The edge serves a site or stream that counts against a user package in full only while that
 * package is active; otherwise the operator's policy applies (package-enforcement.ts: a suspension
 * page or a throttle). So every change of a package's state that has sites or streams behind it is
 * written with a new config version, and agents pick it up on their next poll.
 */

/** Whether any site or stream counts against these user packages. */
async function anythingCounted(db: Db, ids: readonly number[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const [site, stream] = await Promise.all([
    db.selectFrom('sites').select('id').where('user_package_id', 'in', ids).executeTakeFirst(),
    db.selectFrom('streams').select('id').where('user_package_id', 'in', ids).executeTakeFirst(),
  ]);
  return Boolean(site || stream);
}

/** Publishes a new config version when packages that sites or streams count against changed state. */
export async function publishPackageStates(db: Kysely<Database>, ids: readonly number[]) {
  if (await anythingCounted(db, ids)) await changeConfig(db, async () => undefined);
}

/**
 * The scheduled settlement (task `user-packages`, every minute): each active package past its end is
 * renewed for one more term from the owner's balance when auto-renew is on and the balance covers
 * the package's current price, else marked expired; expired sites get the operator's policy with
 * the next config version.
 */
export async function settleUserPackages(db: Kysely<Database>, now = Date.now()) {
  const due = await db
    .selectFrom('user_packages')
    .innerJoin('packages', 'packages.id', 'user_packages.package_id')
    .selectAll('user_packages')
    .select(['packages.on_sale', 'packages.price_month', 'packages.price_quarter', 'packages.price_year'])
    .where('user_packages.state', '=', 'active')
    .where('user_packages.end_at', '<=', now)
    .orderBy('user_packages.id')
    .limit(1000)
    .execute();
  const renewed: number[] = [];
  const expired: number[] = [];
  for (const row of due) {
    const outcome = row.auto_renew === 1 && row.on_sale === 1 ? await autoRenew(db, row, now) : 'unpaid';
    if (outcome === 'renewed') renewed.push(row.id);
    else if (outcome === 'unpaid') expired.push(row.id);
    // 'settled': another master's settlement got to it first.
  }
  if (expired.length > 0) {
    const write = async (trx: Db) =>
      trx
        .updateTable('user_packages')
        .set({ state: 'expired' })
        .where('id', 'in', expired)
        .where('state', '=', 'active')
        .where('end_at', '<=', now)
        .execute();
    if (await anythingCounted(db, expired)) await changeConfig(db, (trx) => write(trx));
    else await write(db);
  }
  await publishEndedBandwidth(db, renewed);
  return { renewed: renewed.length, expired: expired.length };
}

/**
 * A renewal leaves the package's upgrade packs at the old end (until the owner extends them): the
 * bandwidth packs among them no longer add to the cap the sites carry in the snapshot.
 */
async function publishEndedBandwidth(db: Kysely<Database>, renewed: readonly number[]) {
  if (renewed.length === 0) return;
  const packs = await db
    .selectFrom('user_package_upgrades')
    .select('user_package_id')
    .where('user_package_id', 'in', renewed)
    .where('kind', '=', 'bandwidth_mbps')
    .execute();
  if (packs.length > 0) await publishPackageStates(db, [...new Set(packs.map((pack) => pack.user_package_id))]);
}

async function autoRenew(
  db: Kysely<Database>,
  row: {
    id: number;
    user_id: number;
    name: string;
    term: string;
    end_at: number;
    price_month: number | null;
    price_quarter: number | null;
    price_year: number | null;
  },
  now: number,
): Promise<'renewed' | 'settled' | 'unpaid'> {
  const term = row.term as Term;
  const price = termPrice(row, term);
  if (price === null) return 'unpaid';
  try {
    return await db.transaction().execute(async (trx) => {
      // Another master's settlement may have renewed it already: move the end only from where it is.
      const moved = await trx
        .updateTable('user_packages')
        .set({ end_at: addTerms(Math.max(now, row.end_at), term, 1) })
        .where('id', '=', row.id)
        .where('end_at', '=', row.end_at)
        .where('state', '=', 'active')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 'settled';
      await debit(
        trx,
        row.user_id,
        price,
        {
          kind: 'renewal',
          channel: 'balance',
          description: `${row.name}: renewed automatically`,
          user_package_id: row.id,
        },
        now,
      );
      return 'renewed';
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'balance_insufficient') return 'unpaid';
    throw error;
  }
}
