import type { Kysely } from 'kysely';
import type { EventDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import { changeConfig } from '../config/config-version.ts';
import { readDays, streamTotals } from '../usage/usage.repository.ts';
import { limitsOfUserPackages } from './user-packages.repository.ts';

const GB = 1_000_000_000;

/** The first second of the UTC month `now` is in. */
const monthStartSeconds = (now: number) => {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
};

/** One active user package's traffic this UTC month against its cap. */
export interface PackageTraffic {
  id: number;
  user_id: number;
  name: string;
  /** Bytes its sites and streams sent this month. */
  sent: number;
  /** Bytes it may send this month (package plus traffic packs in force); 0 is unlimited. */
  cap: number;
  /** The month's first millisecond (UTC). */
  month: number;
}

/**
 * The monthly traffic cap (part of the settlement task): a package whose sites and streams sent more this UTC
 * month than its traffic (package plus traffic packs in force; 0 is unlimited) is marked exceeded,
 * and its sites and streams get the operator's policy (a suspension page or a throttle) with a new
 * config version; a new month, a traffic pack or a bigger package clears the mark the same way.
 * Answers the counts and each active package's traffic (for the usage notices).
 */
export async function enforceMonthlyTraffic(db: Kysely<Database>, logs: Kysely<EventDatabase>, now = Date.now()) {
  const rows = await db.selectFrom('user_packages').selectAll().where('state', '=', 'active').execute();
  if (rows.length === 0) return { exceeded: 0, cleared: 0, usage: [] as PackageTraffic[] };
  const limits = await limitsOfUserPackages(db, rows, now);
  const month = monthStartSeconds(now);
  const sent = await packagesBytesOut(
    db,
    logs,
    rows.map((row) => row.id),
    month,
    Math.ceil(now / 1000) + 86_400,
  );
  const over: number[] = [];
  const under: number[] = [];
  const usage: PackageTraffic[] = [];
  for (const row of rows) {
    const cap = (limits.get(row.id)?.traffic_gb ?? 0) * GB;
    const bytes = (sent.get(row.id)?.sites ?? 0) + (sent.get(row.id)?.streams ?? 0);
    usage.push({ id: row.id, user_id: row.user_id, name: row.name, sent: bytes, cap, month: month * 1000 });
    const exceeded = cap > 0 && bytes >= cap;
    if (exceeded && row.traffic_exceeded === 0) over.push(row.id);
    if (!exceeded && row.traffic_exceeded === 1) under.push(row.id);
  }
  if (over.length + under.length > 0) {
    await changeConfig(db, async (trx) => {
      if (over.length > 0) {
        await trx.updateTable('user_packages').set({ traffic_exceeded: 1 }).where('id', 'in', over).execute();
      }
      if (under.length > 0) {
        await trx.updateTable('user_packages').set({ traffic_exceeded: 0 }).where('id', 'in', under).execute();
      }
    });
  }
  return { exceeded: over.length, cleared: under.length, usage };
}

/** Bytes out of one user package's sites and of its streams. */
export interface PackageBytesOut {
  sites: number;
  streams: number;
}

/**
 * The bytes out that count against each user package's traffic in [from, to) (seconds, whole UTC
 * days): its sites' (to the clients, as billed) and its streams' (to the clients) from the day rollups.
 */
export async function packagesBytesOut(
  db: Kysely<Database>,
  logs: Kysely<EventDatabase>,
  userPackageIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, PackageBytesOut>> {
  const sent = new Map<number, PackageBytesOut>(userPackageIds.map((id) => [id, { sites: 0, streams: 0 }]));
  if (userPackageIds.length === 0) return sent;
  const [sites, streams] = await Promise.all([
    db.selectFrom('sites').select(['id', 'user_package_id']).where('user_package_id', 'in', userPackageIds).execute(),
    db.selectFrom('streams').select(['id', 'user_package_id']).where('user_package_id', 'in', userPackageIds).execute(),
  ]);
  const siteOwner = new Map(sites.map((site) => [site.id, site.user_package_id]));
  const streamOwner = new Map(streams.map((stream) => [stream.id, stream.user_package_id]));
  const [days, streamSums] = await Promise.all([
    readDays(logs, [...siteOwner.keys()], from, to),
    streamTotals(logs, [...streamOwner.keys()], from, to),
  ]);
  for (const day of days) {
    const owner = sent.get(siteOwner.get(day.site_id) ?? 0);
    if (owner) owner.sites += day.bytes_out;
  }
  for (const stream of streamSums) {
    const owner = sent.get(streamOwner.get(stream.stream_id) ?? 0);
    if (owner) owner.streams += stream.bytes_out;
  }
  return sent;
}
