import { type Static, Type } from 'typebox';
import { ListQuery, ListResult } from './envelope.ts';
import { Id } from './fields.ts';

/**
 * Usage (`/v1/monitor/usage*`, `/v1/monitor/user-package`, `/v1/user-package/{id}/usage`): the
 * traffic of a billing period (a calendar month in UTC) and its 95th-percentile bandwidth, read from
 * 5-minute samples of the bytes sent to clients.
 */
export const USAGE_LIMITS = {
  /** Seconds per bandwidth sample. */
  sampleSeconds: 300,
  /** The billed percentile: the top 5 % of a month's samples are dropped. */
  percentile: 95,
  /** usage-count covers at most this many days. */
  countMaxDays: 366,
} as const;

const Count = Type.Integer({ minimum: 0 });
const BitsPerSecond = Type.Number({ minimum: 0, description: 'bits per second' });

export const UsageMonth = Type.String({
  pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])$',
  description: 'a month such as 2026-11 (UTC)',
});

export const UsageDate = Type.String({
  pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
  description: 'a UTC date such as 2026-11-25',
});

/** Whose usage: the caller's; an admin may name a user. */
const whoseFields = {
  site_id: Type.Optional(Id),
  /** Admins only: the user whose usage is read (others are refused). */
  user_id: Type.Optional(Id),
};

export const UsageQuery = Type.Object(
  { month: Type.Optional(UsageMonth), ...whoseFields },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

/** Traffic and bandwidth of a period: bytes each way, requests, the 95th percentile and the peak sample. */
export const UsageFigures = Type.Object({
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  /** The 95th-percentile bandwidth out of the period's 5-minute samples so far. */
  p95_bps: BitsPerSecond,
  peak_bps: BitsPerSecond,
});
export type UsageFigures = Static<typeof UsageFigures>;

export const UsageDay = Type.Object({
  date: UsageDate,
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  /** The day's highest 5-minute sample. */
  peak_bps: BitsPerSecond,
});
export type UsageDay = Static<typeof UsageDay>;

export const UsageSite = Type.Object({ site_id: Type.Integer(), domain: Type.String(), ...UsageFigures.properties });
export type UsageSite = Static<typeof UsageSite>;

export const Usage = Type.Object({
  month: UsageMonth,
  user_id: Type.Integer(),
  /** The billing period: the month's first and last instant (exclusive end). */
  from: Type.String({ description: 'ISO 8601' }),
  to: Type.String({ description: 'ISO 8601' }),
  /** 5-minute samples the period has had so far (intervals without traffic count as zero). */
  samples: Count,
  /** Every site of the user, or the one named. */
  total: UsageFigures,
  /** Linear on the period so far: the traffic at the end of the month at today's pace. */
  forecast: Type.Object({ bytes_in: Count, bytes_out: Count, requests: Count }),
  /** Every day of the month up to today, oldest first. */
  days: Type.Array(UsageDay),
  /** Per site, the most traffic out first. */
  sites: Type.Array(UsageSite),
});
export type Usage = Static<typeof Usage>;

/** A stream's traffic in the month (streams have no 5-minute samples: their bytes are not in the percentile). */
export const UsageStream = Type.Object({
  stream_id: Type.Integer(),
  name: Type.String(),
  bytes_in: Count,
  bytes_out: Count,
});
export type UsageStream = Static<typeof UsageStream>;

/**
 * A user package's month: `total`, `days` and `sites` are its sites'; `streams` its streams';
 * `counted_bytes_out` is what counts against its monthly traffic (sites' and streams' bytes out).
 */
export const UserPackageUsage = Type.Object({
  user_package_id: Type.Integer(),
  ...Usage.properties,
  /** Per stream, the most traffic out first. */
  streams: Type.Array(UsageStream),
  counted_bytes_out: Count,
});
export type UserPackageUsage = Static<typeof UserPackageUsage>;

/** The package decides whose usage it is: no user_id. */
export const UserPackageUsageQuery = Type.Object({ month: Type.Optional(UsageMonth) }, { additionalProperties: false });
export type UserPackageUsageQuery = Static<typeof UserPackageUsageQuery>;

export const UsageCountQuery = Type.Object(
  {
    /** First and last UTC day, both included; default: this month up to today. */
    from: Type.Optional(UsageDate),
    to: Type.Optional(UsageDate),
    ...whoseFields,
  },
  { additionalProperties: false },
);
export type UsageCountQuery = Static<typeof UsageCountQuery>;

export const UsageCount = Type.Object({
  from: UsageDate,
  to: UsageDate,
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  cache_hits: Count,
  blocked: Count,
});
export type UsageCount = Static<typeof UsageCount>;

export const UserUsageQuery = Type.Object(
  { ...ListQuery.properties, month: Type.Optional(UsageMonth) },
  { additionalProperties: false },
);
export type UserUsageQuery = Static<typeof UserUsageQuery>;

/** One user of GET /v1/monitor/user-package: ranked by traffic out in the month until packages carry limits. */
export const UserUsage = Type.Object({
  user_id: Type.Integer(),
  account: Type.String(),
  name: Type.String(),
  sites: Count,
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  p95_bps: BitsPerSecond,
  forecast_bytes_out: Count,
});
export type UserUsage = Static<typeof UserUsage>;

export const UserUsageList = Type.Object({ month: UsageMonth, ...ListResult(UserUsage).properties });
export type UserUsageList = Static<typeof UserUsageList>;
