import { type Static, Type } from 'typebox';
import { ListQuery } from '../envelope.ts';
import { Id, IdOrZero } from '../fields.ts';
import { OwnerAccount } from '../user.ts';
import { IpAddress, ObjectName } from './fields.ts';
import {
  AclEntry,
  BlockKind,
  Cidr,
  Condition,
  FilterSettings,
  FilterType,
  MatchSettings,
  RuleLine,
  SiteProtection,
} from './protection.ts';

/**
 * The /v1 calls of protection: CC matches, filters and rule groups (`/v1/cc-matchs`,
 * `/v1/cc-filters`, `/v1/cc-rules`), ACLs, bans and the block log. Rows of user 0 are system rows:
 * an admin made them with `system: true`, every user may use them, only admins change them.
 */

const OwnerId = Type.Integer({ minimum: 0, description: '0: a system row every user can use' });
const Time = Type.String({ description: 'ISO 8601' });
/** Admins only: `system` makes a system row (user 0), `user_id` makes it for that user. */
const creatorFields = {
  system: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(Id),
};

export const CcListQuery = Type.Object({
  ...ListQuery.properties,
  /** Part of the name, any case. */
  name: Type.Optional(Type.String({ maxLength: 64 })),
  /** Admins: one user's rows (0: system rows). */
  user_id: Type.Optional(IdOrZero),
});
export type CcListQuery = Static<typeof CcListQuery>;

/** Batch PUT on /v1/cc-matchs, /v1/cc-filters, /v1/cc-rules: all listed rows or none. */
export const CcBatchBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
    action: Type.Literal('delete', { description: 'delete' }),
  },
  { additionalProperties: false },
);
export type CcBatchBody = Static<typeof CcBatchBody>;

export const CcMatch = Type.Object({
  id: Type.Integer(),
  user_id: OwnerId,
  user_account: Type.Optional(OwnerAccount),
  name: Type.String(),
  conditions: Type.Array(Condition),
  created_at: Time,
  updated_at: Time,
});
export type CcMatch = Static<typeof CcMatch>;

export const CreateCcMatchBody = Type.Object(
  { name: ObjectName, conditions: MatchSettings.properties.conditions, ...creatorFields },
  { additionalProperties: false },
);
export type CreateCcMatchBody = Static<typeof CreateCcMatchBody>;

export const UpdateCcMatchBody = Type.Object(
  { name: Type.Optional(ObjectName), conditions: Type.Optional(MatchSettings.properties.conditions) },
  { additionalProperties: false },
);
export type UpdateCcMatchBody = Static<typeof UpdateCcMatchBody>;

const filterFields = FilterSettings.properties;

/**
 * A filter keeps only the settings of its type: rate `requests`, `seconds`, `per` (default ip);
 * js, redirect, captcha `valid_seconds` (default 3600); delay `delay_ms`.
 */
export const CcFilter = Type.Object({
  id: Type.Integer(),
  user_id: OwnerId,
  user_account: Type.Optional(OwnerAccount),
  name: Type.String(),
  type: FilterType,
  requests: filterFields.requests,
  seconds: filterFields.seconds,
  per: filterFields.per,
  valid_seconds: filterFields.valid_seconds,
  delay_ms: filterFields.delay_ms,
  created_at: Time,
  updated_at: Time,
});
export type CcFilter = Static<typeof CcFilter>;

export const CreateCcFilterBody = Type.Object(
  {
    name: ObjectName,
    type: FilterType,
    requests: filterFields.requests,
    seconds: filterFields.seconds,
    per: filterFields.per,
    valid_seconds: filterFields.valid_seconds,
    delay_ms: filterFields.delay_ms,
    ...creatorFields,
  },
  { additionalProperties: false },
);
export type CreateCcFilterBody = Static<typeof CreateCcFilterBody>;

/** Sent fields replace the stored ones; settings that do not apply to the (new) type are dropped. */
export const UpdateCcFilterBody = Type.Object(
  {
    name: Type.Optional(ObjectName),
    type: Type.Optional(FilterType),
    requests: filterFields.requests,
    seconds: filterFields.seconds,
    per: filterFields.per,
    valid_seconds: filterFields.valid_seconds,
    delay_ms: filterFields.delay_ms,
  },
  { additionalProperties: false },
);
export type UpdateCcFilterBody = Static<typeof UpdateCcFilterBody>;

export const RuleLines = Type.Array(RuleLine, { maxItems: 100, description: 'at most 100 rules' });

export const CcRuleGroup = Type.Object({
  id: Type.Integer(),
  user_id: OwnerId,
  user_account: Type.Optional(OwnerAccount),
  name: Type.String(),
  /** The system group sites without a rule group use; at most one. */
  is_default: Type.Boolean(),
  rules: Type.Array(RuleLine),
  created_at: Time,
  updated_at: Time,
});
export type CcRuleGroup = Static<typeof CcRuleGroup>;

export const CreateCcRuleGroupBody = Type.Object(
  {
    name: ObjectName,
    rules: Type.Optional(RuleLines),
    /** Admins, system groups only. */
    is_default: Type.Optional(Type.Boolean()),
    ...creatorFields,
  },
  { additionalProperties: false },
);
export type CreateCcRuleGroupBody = Static<typeof CreateCcRuleGroupBody>;

export const UpdateCcRuleGroupBody = Type.Object(
  { name: Type.Optional(ObjectName), rules: Type.Optional(RuleLines), is_default: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type UpdateCcRuleGroupBody = Static<typeof UpdateCcRuleGroupBody>;

export const AclEntries = Type.Array(AclEntry, { maxItems: 1000, description: 'at most 1000 entries' });

/** A site's ACL (one per site): entries in order, the first whose condition holds decides. */
export const Acl = Type.Object({
  id: Type.Integer(),
  site_id: Type.Integer(),
  user_id: Type.Integer(),
  entries: Type.Array(AclEntry),
  created_at: Time,
  updated_at: Time,
});
export type Acl = Static<typeof Acl>;

export const AclListQuery = Type.Object({
  ...ListQuery.properties,
  site_id: Type.Optional(Id),
});
export type AclListQuery = Static<typeof AclListQuery>;

export const CreateAclBody = Type.Object({ site_id: Id, entries: AclEntries }, { additionalProperties: false });
export type CreateAclBody = Static<typeof CreateAclBody>;

export const UpdateAclBody = Type.Object({ entries: AclEntries }, { additionalProperties: false });
export type UpdateAclBody = Static<typeof UpdateAclBody>;

export const BanSource = Type.Union([Type.Literal('manual'), Type.Literal('edge')], {
  description: 'manual (POST /v1/monitor/site/blackip) or edge (a rule with action ban)',
});
export type BanSource = Static<typeof BanSource>;

export const BanReason = Type.String({
  maxLength: 256,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029<>"\'`\\\\{};$#]*$',
  description: 'at most 256 characters without control characters, line separators, quotes, \\ < > { } ; $ # or `',
});

/**
 * A ban. Manual: `cidr` is an address or range, site 0 is every site. Edge: an address a node
 * banned on its own; `node_id`, `group_id`, `match_id`, `filter_id` say which rule did it.
 */
export const Ban = Type.Object({
  id: Type.Integer(),
  source: BanSource,
  site_id: IdOrZero,
  cidr: Type.String(),
  reason: Type.String(),
  node_id: Type.Union([Type.Integer(), Type.Null()]),
  group_id: Type.Integer(),
  match_id: Type.Integer(),
  filter_id: Type.Integer(),
  created_at: Time,
  expires_at: Time,
  /** When it was lifted by hand; null while it runs or after it ran out. */
  lifted_at: Type.Union([Time, Type.Null()]),
});
export type Ban = Static<typeof Ban>;

export const BanListQuery = Type.Object({
  ...ListQuery.properties,
  site_id: Type.Optional(IdOrZero),
  /** The banned address or range exactly as listed. */
  ip: Type.Optional(Cidr),
});
export type BanListQuery = Static<typeof BanListQuery>;

export const CreateBanBody = Type.Object(
  {
    /** 0: every site (admins only). */
    site_id: IdOrZero,
    cidr: Cidr,
    seconds: Type.Integer({ minimum: 1, maximum: 31_536_000, description: '1 to 31536000 seconds' }),
    reason: Type.Optional(BanReason),
  },
  { additionalProperties: false },
);
export type CreateBanBody = Static<typeof CreateBanBody>;

export const LiftBanBody = Type.Object({ site_id: IdOrZero, ip: Cidr }, { additionalProperties: false });
export type LiftBanBody = Static<typeof LiftBanBody>;

export const BanCount = Type.Object({ site_id: IdOrZero, count: Type.Integer({ minimum: 0 }) });
export type BanCount = Static<typeof BanCount>;

/** A time in a query: ISO 8601 (2026-11-22T10:00:00Z) or Unix seconds. */
export const LogTime = Type.String({
  maxLength: 40,
  pattern:
    '^(?:[0-9]{1,12}|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?)$',
  description: 'an ISO 8601 time such as 2026-11-22T10:00:00Z, or Unix seconds',
});

export const BlockLogQuery = Type.Object({
  ...ListQuery.properties,
  site_id: Type.Optional(Id),
  ip: Type.Optional(IpAddress),
  kind: Type.Optional(BlockKind),
  group: Type.Optional(Id),
  /** From (inclusive) and to (exclusive). */
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
});
export type BlockLogQuery = Static<typeof BlockLogQuery>;

/** An access log line protection acted on, its `block_reason` taken apart. */
export const BlockLogEntry = Type.Object({
  time: Time,
  site_id: Type.Integer(),
  node_id: Type.Integer(),
  client_ip: Type.String(),
  method: Type.String(),
  host: Type.String(),
  uri: Type.String(),
  status: Type.Integer(),
  kind: Type.String({
    description: 'acl, ban, rate, challenge, delay or waf; empty if the reason is not in the known format (see detail)',
  }),
  action: Type.String(),
  group: Type.Integer(),
  match: Type.Integer(),
  filter: Type.Integer(),
  detail: Type.String(),
});
export type BlockLogEntry = Static<typeof BlockLogEntry>;

/** WAF settings new sites start with (config `global-0-waf-defaults`). */
export const WafDefaults = SiteProtection.properties.waf;
export type WafDefaults = Static<typeof WafDefaults>;
