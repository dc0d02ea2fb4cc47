import {
  USAGE_LIMITS,
  type Usage,
  type UsageCount,
  type UsageCountQuery,
  type UsageDay,
  type UsageFigures,
  type UsageQuery,
  type UserPackageUsage,
  type UserUsageList,
  type UserUsageQuery,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { EventStore } from '../../db/events.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Owner } from '../tenancy.ts';
import {
  type BillingPeriod,
  billingPeriod,
  DAY_MS,
  dateOf,
  dayRange,
  forecastLinear,
  highest,
  percentile95,
  sampleBps,
} from './billing.ts';
import {
  type OwnedSite,
  ordinaryUsers,
  readDays,
  readSampleSums,
  readSamples,
  siteOwners,
  sitesOfUser,
  streamsOfUserPackage,
  streamTotals,
  totalsPerSite,
  userExists,
} from './usage.repository.ts';

export interface UsageStores {
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  events: EventStore;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Whose usage a call reads: the caller's own; only an admin names another user. */
async function whose(db: Kysely<Database>, owner: Owner, userId: number | undefined): Promise<number> {
  if (userId === undefined || userId === owner.userId) return owner.userId;
  if (owner.kind !== 'admin')
    throw new AppError('forbidden', 'user_id: only an administrator reads the usage of another user');
  if (!(await userExists(db, userId))) throw new AppError('not_found', `user_id: user ${userId} does not exist`);
  return userId;
}

async function scopedSites(stores: UsageStores, userId: number, siteId: number | undefined): Promise<OwnedSite[]> {
  const sites = await sitesOfUser(stores.db, userId, siteId);
  if (siteId !== undefined && sites.length === 0)
    throw new AppError('not_found', `site_id: site ${siteId} does not exist`);
  return sites;
}

interface Sums {
  bytes_in: number;
  bytes_out: number;
  requests: number;
}

const add = (into: Sums, row: Sums) => {
  into.bytes_in += row.bytes_in;
  into.bytes_out += row.bytes_out;
  into.requests += row.requests;
};

const figures = (sums: Sums, samples: ArrayLike<number>, count: number): UsageFigures => ({
  ...sums,
  p95_bps: sampleBps(percentile95(samples, count)),
  peak_bps: sampleBps(highest(samples)),
});

/** The usage of a billing period: totals, the 95th percentile, the forecast, per day and per site. */
export async function usageOf(
  stores: UsageStores,
  owner: Owner,
  query: UsageQuery,
  now: number,
  userPackageId?: number,
): Promise<Usage> {
  const userId = await whose(stores.db, owner, query.user_id);
  const period = billingPeriod(query.month, now);
  let sites = await scopedSites(stores, userId, query.site_id);
  if (userPackageId !== undefined) {
    // A user package's usage: only the sites that count against it.
    const counted = await stores.db
      .selectFrom('sites')
      .select('id')
      .where('user_package_id', '=', userPackageId)
      .execute();
    const ids = new Set(counted.map((row) => row.id));
    sites = sites.filter((site) => ids.has(site.id));
  }
  const ids = sites.map((site) => site.id);
  const from = seconds(period.fromMs);
  const to = seconds(period.toMs);
  const [samples, days] = await Promise.all([
    readSamples(stores.events.db, ids, from, to),
    readDays(stores.events.db, ids, from, to),
  ]);

  // The user's samples are the sums over their sites per interval, by the interval's index in the
  // month (a typed array: bucket numbers are too large for V8's fast map keys); each site keeps its own.
  const perSlot = new Float64Array((to - from) / USAGE_LIMITS.sampleSeconds);
  const perSite = new Map<number, number[]>();
  for (const sample of samples) {
    const slot = (sample.bucket - from) / USAGE_LIMITS.sampleSeconds;
    perSlot[slot] = (perSlot[slot] ?? 0) + sample.bytes_out;
    const list = perSite.get(sample.site_id) ?? [];
    list.push(sample.bytes_out);
    perSite.set(sample.site_id, list);
  }
  const userSamples = perSlot.filter((bytes) => bytes > 0);
  const total: Sums = { bytes_in: 0, bytes_out: 0, requests: 0 };
  const siteSums = new Map<number, Sums>();
  const daySums = new Map<number, Sums>();
  for (const day of days) {
    add(total, day);
    const site = siteSums.get(day.site_id) ?? { bytes_in: 0, bytes_out: 0, requests: 0 };
    add(site, day);
    siteSums.set(day.site_id, site);
    const sums = daySums.get(day.bucket) ?? { bytes_in: 0, bytes_out: 0, requests: 0 };
    add(sums, day);
    daySums.set(day.bucket, sums);
  }
  return {
    month: period.month,
    user_id: userId,
    from: new Date(period.fromMs).toISOString(),
    to: new Date(period.toMs).toISOString(),
    samples: period.samples,
    total: figures(total, userSamples, period.samples),
    forecast: forecastOf(total, period),
    days: usageDays(period, daySums, perSlot),
    sites: sites
      .map((site) => ({
        site_id: site.id,
        domain: site.domain,
        ...figures(
          siteSums.get(site.id) ?? { bytes_in: 0, bytes_out: 0, requests: 0 },
          perSite.get(site.id) ?? [],
          period.samples,
        ),
      }))
      .sort((a, b) => b.bytes_out - a.bytes_out || a.site_id - b.site_id),
  };
}

/**
 * A user package's month: its sites' usage, its streams' traffic, and the bytes out that count
 * against its monthly traffic (the figure the traffic cap and the usage notices use).
 */
export async function userPackageUsageOf(
  stores: UsageStores,
  owner: Owner,
  userPackage: { id: number; user_id: number },
  month: string | undefined,
  now: number,
): Promise<UserPackageUsage> {
  const query = { ...(month && { month }), user_id: userPackage.user_id };
  const usage = await usageOf(stores, owner, query, now, userPackage.id);
  const period = billingPeriod(month, now);
  const streams = await streamsOfUserPackage(stores.db, userPackage.id);
  const totals = new Map(
    (
      await streamTotals(
        stores.events.db,
        streams.map((stream) => stream.id),
        seconds(period.fromMs),
        seconds(period.toMs),
      )
    ).map((row) => [row.stream_id, row]),
  );
  const streamUsage = streams
    .map((stream) => ({
      stream_id: stream.id,
      name: stream.name,
      bytes_in: totals.get(stream.id)?.bytes_in ?? 0,
      bytes_out: totals.get(stream.id)?.bytes_out ?? 0,
    }))
    .sort((a, b) => b.bytes_out - a.bytes_out || a.stream_id - b.stream_id);
  const streamsOut = streamUsage.reduce((sum, stream) => sum + stream.bytes_out, 0);
  return {
    user_package_id: userPackage.id,
    ...usage,
    streams: streamUsage,
    counted_bytes_out: usage.total.bytes_out + streamsOut,
  };
}

const forecastOf = (sums: Sums, period: BillingPeriod): Sums => {
  const elapsed = period.untilMs - period.fromMs;
  const length = period.toMs - period.fromMs;
  return {
    bytes_in: forecastLinear(sums.bytes_in, elapsed, length),
    bytes_out: forecastLinear(sums.bytes_out, elapsed, length),
    requests: forecastLinear(sums.requests, elapsed, length),
  };
};

/** Every day of the period up to now, with its traffic and its highest sample. */
function usageDays(period: BillingPeriod, daySums: Map<number, Sums>, perSlot: Float64Array): UsageDay[] {
  const perDay = DAY_MS / 1000 / USAGE_LIMITS.sampleSeconds;
  const days: UsageDay[] = [];
  for (let ms = period.fromMs, day = 0; ms < period.untilMs; ms += DAY_MS, day++) {
    let peak = 0;
    for (let slot = day * perDay; slot < (day + 1) * perDay; slot++) peak = Math.max(peak, perSlot[slot] ?? 0);
    days.push({
      date: dateOf(ms),
      ...(daySums.get(seconds(ms)) ?? { bytes_in: 0, bytes_out: 0, requests: 0 }),
      peak_bps: sampleBps(peak),
    });
  }
  return days;
}

/** The traffic of whole UTC days (default: this month up to today), from the day rollup. */
export async function usageCount(
  stores: UsageStores,
  owner: Owner,
  query: UsageCountQuery,
  now: number,
): Promise<UsageCount> {
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const { firstMs, lastMs } = dayRange(query, { now, maxDays: USAGE_LIMITS.countMaxDays, defaultFromMs: monthStart });
  const userId = await whose(stores.db, owner, query.user_id);
  const sites = await scopedSites(stores, userId, query.site_id);
  const days = await readDays(
    stores.events.db,
    sites.map((site) => site.id),
    seconds(firstMs),
    seconds(lastMs + DAY_MS),
  );
  const count: UsageCount = {
    from: dateOf(firstMs),
    to: dateOf(lastMs),
    bytes_in: 0,
    bytes_out: 0,
    requests: 0,
    cache_hits: 0,
    blocked: 0,
  };
  for (const day of days) {
    add(count, day);
    count.cache_hits += day.cache_hits;
    count.blocked += day.blocked;
  }
  return count;
}

/**
 * Admin: ordinary users ranked by traffic out in the month, most first. Packages carry no limits
 * yet, so "nearest their limit" is "the most used"; the 95th percentile and forecast are computed
 * for the page's users only.
 */
export async function userUsageRanking(
  stores: UsageStores,
  query: UserUsageQuery,
  now: number,
): Promise<UserUsageList> {
  const period = billingPeriod(query.month, now);
  const from = seconds(period.fromMs);
  const to = seconds(period.toMs);
  const [users, owners, totals] = await Promise.all([
    ordinaryUsers(stores.db),
    siteOwners(stores.db),
    totalsPerSite(stores.events.db, from, to),
  ]);
  const sitesOf = new Map<number, number[]>();
  for (const site of owners) sitesOf.set(site.user_id, [...(sitesOf.get(site.user_id) ?? []), site.id]);
  const totalOf = new Map(totals.map((row) => [row.site_id, row]));
  const ranked = users
    .map((user) => {
      const sums: Sums = { bytes_in: 0, bytes_out: 0, requests: 0 };
      for (const id of sitesOf.get(user.id) ?? []) {
        const row = totalOf.get(id);
        if (row) add(sums, row);
      }
      return { user, sums };
    })
    .sort((a, b) => b.sums.bytes_out - a.sums.bytes_out || a.user.id - b.user.id);
  const limit = query.limit ?? 20;
  const page = ranked.slice(((query.page ?? 1) - 1) * limit, (query.page ?? 1) * limit);
  const forecast = (sums: Sums) => forecastOf(sums, period).bytes_out;
  const list = await Promise.all(
    page.map(async ({ user, sums }) => {
      const ids = sitesOf.get(user.id) ?? [];
      const samples = await readSampleSums(stores.events.db, ids, from, to);
      return {
        user_id: user.id,
        account: user.account,
        name: user.name,
        sites: ids.length,
        ...sums,
        p95_bps: sampleBps(percentile95(samples, period.samples)),
        forecast_bytes_out: forecast(sums),
      };
    }),
  );
  return { month: period.month, list, total: users.length };
}
