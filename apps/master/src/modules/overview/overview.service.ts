import {
  ADMIN_OVERVIEW_ACCESS,
  type AdminOverview,
  type CountSeries,
  type CountSeriesQuery,
  type OrderCountQuery,
  type OrderCountSeries,
  OVERVIEW_LIMITS,
  type TrafficDay,
  type TrafficToday,
  type UserOverview,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { EventStore } from '../../db/events.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import { holds } from '../../plugins/route-policy.ts';
import { OFFLINE_AFTER_MS } from '../nodes/nodes.repository.ts';
import { DAY_MS, dateOf, dayRange, dayStart } from '../usage/billing.ts';
import type { UserRow } from '../users/user-row.ts';
import {
  countRows,
  countUsers,
  type DayTotals,
  expiringCerts,
  newUsersPerDay,
  nodeCounts,
  packagesSoldPerDay,
  paidOrdersPerDay,
  siteIdsOfUser,
  sitesByIds,
  topSitesOfDay,
  trafficPerDay,
} from './overview.repository.ts';

export interface OverviewStores {
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  events: EventStore;
}

const ZERO: TrafficToday = { bytes_in: 0, bytes_out: 0, requests: 0, cache_hits: 0, blocked: 0 };

const counts = ({ bucket: _, ...rest }: DayTotals): TrafficToday => rest;

/** The trend's days (oldest first, every day listed) and today's figures, from one read of the day rollup. */
async function trafficTrend(stores: OverviewStores, siteIds: readonly number[] | 'all', now: number) {
  const today = dayStart(now);
  const first = today - (OVERVIEW_LIMITS.trendDays - 1) * DAY_MS;
  const rows = await trafficPerDay(stores.events.db, siteIds, first / 1000, (today + DAY_MS) / 1000);
  const byDay = new Map(rows.map((row) => [row.bucket * 1000, counts(row)]));
  const trend: TrafficDay[] = [];
  for (let ms = first; ms <= today; ms += DAY_MS) trend.push({ date: dateOf(ms), ...(byDay.get(ms) ?? ZERO) });
  return { trend, today: byDay.get(today) ?? ZERO };
}

/** A figure when the viewer holds one of its codes, otherwise null (and no query is made for it). */
const figure = <T>(viewer: UserRow, name: keyof typeof ADMIN_OVERVIEW_ACCESS, read: () => Promise<T>) =>
  holds(viewer, ADMIN_OVERVIEW_ACCESS[name]) ? read() : Promise.resolve(null);

/** Today's count from a per-day series (one day asked, at most one row). */
const todayOf = (rows: readonly { count: number }[]) => rows.reduce((sum, row) => sum + row.count, 0);

/**
 * The admin's home: the fleet, the counts, today's traffic with its trend and top sites; each only
 * for an admin holding a code of its area (ADMIN_OVERVIEW_ACCESS), null otherwise.
 */
export async function adminOverview(stores: OverviewStores, viewer: UserRow, now: number): Promise<AdminOverview> {
  const today = dayStart(now);
  const [nodes, sites, streams, users, newUsers, packagesSold, orders, traffic, top] = await Promise.all([
    figure(viewer, 'nodes', () => nodeCounts(stores.db, now - OFFLINE_AFTER_MS)),
    figure(viewer, 'sites', () => countRows(stores.db, 'sites')),
    figure(viewer, 'streams', () => countRows(stores.db, 'streams')),
    figure(viewer, 'users', () => countUsers(stores.db)),
    figure(viewer, 'new_users_today', () => countUsers(stores.db, today)),
    figure(viewer, 'packages_sold_today', async () =>
      todayOf(await packagesSoldPerDay(stores.db, today, today + DAY_MS)),
    ),
    figure(viewer, 'orders_today', async () => todayOf(await paidOrdersPerDay(stores.db, today, today + DAY_MS))),
    // Today's figures and the trend come from one read, under the same codes.
    figure(viewer, 'trend', () => trafficTrend(stores, 'all', now)),
    figure(viewer, 'top_sites', () => topSitesOfDay(stores.events.db, today / 1000, OVERVIEW_LIMITS.topSites)),
  ]);
  const siteRows = new Map(
    (
      await sitesByIds(
        stores.db,
        (top ?? []).map((row) => row.site_id),
      )
    ).map((row) => [row.id, row]),
  );
  return {
    nodes,
    sites,
    streams,
    users,
    new_users_today: newUsers,
    packages_sold_today: packagesSold,
    orders_today: orders,
    today: traffic?.today ?? null,
    trend: traffic?.trend ?? null,
    // A site deleted today keeps its traffic under its id, without a domain.
    top_sites:
      top?.map((row) => ({
        ...row,
        domain: siteRows.get(row.site_id)?.domain ?? '',
        user_id: siteRows.get(row.site_id)?.user_id ?? 0,
      })) ?? null,
  };
}

/** A user's home: their sites, streams, certificates running out, and their traffic today and this month. */
export async function userOverview(stores: OverviewStores, userId: number, now: number): Promise<UserOverview> {
  const ids = await siteIdsOfUser(stores.db, userId);
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const [streams, certs, expiring, traffic, month] = await Promise.all([
    countRows(stores.db, 'streams', userId),
    countRows(stores.db, 'certs', userId),
    expiringCerts(stores.db, userId, now + OVERVIEW_LIMITS.expiringCertDays * DAY_MS, OVERVIEW_LIMITS.expiringCertList),
    trafficTrend(stores, ids, now),
    trafficPerDay(stores.events.db, ids, monthStart / 1000, (dayStart(now) + DAY_MS) / 1000),
  ]);
  return {
    sites: ids.length,
    streams,
    certs,
    certs_expiring: expiring.total,
    certs_expiring_list: expiring.list.map((cert) => ({ ...cert, not_after: new Date(cert.not_after).toISOString() })),
    today: traffic.today,
    month: {
      bytes_out: month.reduce((sum, row) => sum + row.bytes_out, 0),
      requests: month.reduce((sum, row) => sum + row.requests, 0),
    },
    trend: traffic.trend,
  };
}

const countRange = (query: CountSeriesQuery, now: number) =>
  dayRange(query, {
    now,
    maxDays: OVERVIEW_LIMITS.countMaxDays,
    defaultFromMs: dayStart(now) - (OVERVIEW_LIMITS.countDefaultDays - 1) * DAY_MS,
  });

/** Every day of the range with its count (zero where none). */
function series(firstMs: number, lastMs: number, perDay: Map<number, number>): CountSeries {
  const list = [];
  let total = 0;
  for (let ms = firstMs; ms <= lastMs; ms += DAY_MS) {
    const count = perDay.get(ms) ?? 0;
    total += count;
    list.push({ date: dateOf(ms), count });
  }
  return { from: dateOf(firstMs), to: dateOf(lastMs), total, list };
}

export async function newUserCount(stores: OverviewStores, query: CountSeriesQuery, now: number): Promise<CountSeries> {
  const { firstMs, lastMs } = countRange(query, now);
  const rows = await newUsersPerDay(stores.db, firstMs, lastMs + DAY_MS);
  return series(firstMs, lastMs, new Map(rows.map((row) => [row.dayMs, row.count])));
}

/** Packages sold (user packages made, bought or granted) per day. */
export async function packagesSoldCount(
  stores: OverviewStores,
  query: CountSeriesQuery,
  now: number,
): Promise<CountSeries> {
  const { firstMs, lastMs } = countRange(query, now);
  const rows = await packagesSoldPerDay(stores.db, firstMs, lastMs + DAY_MS);
  return series(firstMs, lastMs, new Map(rows.map((row) => [row.dayMs, row.count])));
}

/** Paid orders (of one kind, or all) per day of payment: how many, their sum, and the sum per channel. */
export async function orderCount(
  stores: OverviewStores,
  query: OrderCountQuery,
  now: number,
): Promise<OrderCountSeries> {
  const { firstMs, lastMs } = countRange(query, now);
  const rows = await paidOrdersPerDay(stores.db, firstMs, lastMs + DAY_MS, query.kind);
  const days = new Map<number, { count: number; amount: number; by_channel: Record<string, number> }>();
  const answer: OrderCountSeries = {
    from: dateOf(firstMs),
    to: dateOf(lastMs),
    total: 0,
    amount: 0,
    by_channel: {},
    list: [],
  };
  for (const row of rows) {
    const day = days.get(row.dayMs) ?? { count: 0, amount: 0, by_channel: {} };
    days.set(row.dayMs, day);
    day.count += row.count;
    day.amount += row.amount;
    day.by_channel[row.channel] = (day.by_channel[row.channel] ?? 0) + row.amount;
    answer.total += row.count;
    answer.amount += row.amount;
    answer.by_channel[row.channel] = (answer.by_channel[row.channel] ?? 0) + row.amount;
  }
  for (let ms = firstMs; ms <= lastMs; ms += DAY_MS) {
    answer.list.push({ date: dateOf(ms), ...(days.get(ms) ?? { count: 0, amount: 0, by_channel: {} }) });
  }
  return answer;
}
