import { type Static, Type } from 'typebox';
import { Id, IdOrZero } from '../fields.ts';
import { HeaderName } from './fields.ts';

/**
 * Protection, cdnfly's model: a match (`cc-matchs`) says which requests, a filter (`cc-filters`) what
 * a matching client must pass, a rule group (`cc-rules`) an ordered list of (match, filter, action).
 * Sites pick a rule group (and another one for "under attack"), have an ordered ACL, a whitelist of
 * addresses never challenged, and bans. Every value reaches the edge's Lua as data, never as code or
 * configuration; the agent and the edge check the shapes again.
 */

const IPV4_CIDR =
  '(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:/(?:3[0-2]|[12]?[0-9]))?';
const IPV6_CIDR = '[0-9a-fA-F:]*:[0-9a-fA-F:]*(?:/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))?';

export const CIDR_PATTERN = `^(?:${IPV4_CIDR}|${IPV6_CIDR})$`;

/** An IPv4 or IPv6 address, or a CIDR range. */
export const Cidr = Type.String({
  maxLength: 49,
  pattern: CIDR_PATTERN,
  description: 'an IPv4 or IPv6 address or CIDR range such as 203.0.113.0/24',
});

/** Text a condition compares with: printable ASCII, no control characters. */
export const MatchValue = Type.String({
  minLength: 1,
  maxLength: 256,
  pattern: '^[ -~]+$',
  description: '1 to 256 printable ASCII characters',
});

export const ConditionField = Type.Union(
  [
    Type.Literal('ip'),
    Type.Literal('path'),
    Type.Literal('query'),
    Type.Literal('method'),
    Type.Literal('user_agent'),
    Type.Literal('referer'),
    Type.Literal('header'),
    Type.Literal('host'),
    Type.Literal('country'),
  ],
  {
    description:
      'ip, path, query, method, user_agent, referer, header, host or country (the client address looked up in the GeoIP database; values are ISO 3166-1 alpha-2 codes, op equals)',
  },
);
export type ConditionField = Static<typeof ConditionField>;

/**
 * How a condition compares: `cidr` for `ip` only (values are CIDR ranges); `equals` only for
 * `country` (values are ISO 3166-1 alpha-2 codes: any one is the client's country); `equals`, `prefix`,
 * `contains` (case-sensitive, except `method` and `host`, which compare in upper/lower case) and
 * `regex` (PCRE, at most 256 characters, run with a match limit) for the others.
 */
export const ConditionOp = Type.Union(
  [
    Type.Literal('cidr'),
    Type.Literal('equals'),
    Type.Literal('prefix'),
    Type.Literal('contains'),
    Type.Literal('regex'),
  ],
  { description: 'cidr (ip only), equals (the only one for country), prefix, contains or regex' },
);
export type ConditionOp = Static<typeof ConditionOp>;

export const Condition = Type.Object(
  {
    field: ConditionField,
    op: ConditionOp,
    /** Any one value matching makes the condition true (before `negate`). */
    values: Type.Array(MatchValue, { minItems: 1, maxItems: 1000, description: '1 to 1000 values' }),
    /** The request header to compare, for field `header`. */
    header: Type.Optional(HeaderName),
    negate: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);
export type Condition = Static<typeof Condition>;

/** The conditions of a match, all of which must hold (AND). */
export const MatchSettings = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: '1 to 64 characters' }),
    conditions: Type.Array(Condition, { minItems: 1, maxItems: 16, description: '1 to 16 conditions' }),
  },
  { additionalProperties: false },
);
export type MatchSettings = Static<typeof MatchSettings>;

export const FilterType = Type.Union(
  [Type.Literal('rate'), Type.Literal('js'), Type.Literal('redirect'), Type.Literal('captcha'), Type.Literal('delay')],
  { description: 'rate, js, redirect, captcha or delay' },
);
export type FilterType = Static<typeof FilterType>;

/**
 * What a matching client must pass. `rate`: at most `requests` in `seconds` per IP (or per IP and
 * URL); `js`, `redirect`, `captcha`: a challenge whose signed cookie (bound to the client IP) stays
 * valid `valid_seconds`; `delay`: the request waits `delay_ms` first.
 */
export const FilterSettings = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: '1 to 64 characters' }),
    type: FilterType,
    requests: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1 to 1000000 requests' })),
    seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: '1 to 86400 seconds' })),
    per: Type.Optional(Type.Union([Type.Literal('ip'), Type.Literal('ip_url')], { description: 'ip or ip_url' })),
    valid_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 604_800, description: '60 to 604800 seconds' })),
    delay_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: '1 to 10000 ms' })),
  },
  { additionalProperties: false },
);
export type FilterSettings = Static<typeof FilterSettings>;

export const RuleAction = Type.Union([Type.Literal('block'), Type.Literal('ban'), Type.Literal('log')], {
  description: 'block, ban or log',
});
export type RuleAction = Static<typeof RuleAction>;

/** One line of a rule group: requests the match selects must pass the filter, or get the action. */
export const RuleLine = Type.Object(
  {
    match_id: Id,
    filter_id: Id,
    action: RuleAction,
    ban_seconds: Type.Integer({ minimum: 1, maximum: 2_592_000, default: 600, description: '1 to 2592000 seconds' }),
  },
  { additionalProperties: false },
);
export type RuleLine = Static<typeof RuleLine>;

export const AclAction = Type.Union([Type.Literal('allow'), Type.Literal('deny')], { description: 'allow or deny' });

/** One ACL entry: the first entry whose condition holds decides; allow skips every later check. */
export const AclEntry = Type.Object({ action: AclAction, condition: Condition }, { additionalProperties: false });
export type AclEntry = Static<typeof AclEntry>;

export const WafMode = Type.Union([Type.Literal('off'), Type.Literal('detect'), Type.Literal('block')], {
  description: 'off, detect or block',
});

/**
 * File extensions the signature WAF skips by default (`waf.static_exts` absent): images, fonts,
 * styles and scripts, media, archives and PDF. Only plain GET or HEAD requests for such a path,
 * without a query string, a body or any character beyond letters, digits, - . _ ~ and /, skip it.
 */
export const DEFAULT_STATIC_EXTS: readonly string[] = [
  ...['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'ico', 'svg', 'bmp'],
  ...['woff', 'woff2', 'ttf', 'otf', 'eot'],
  ...['css', 'js', 'map'],
  ...['mp4', 'webm', 'mp3', 'ogg', 'wav', 'flac', 'm4a', 'mov'],
  ...['zip', 'gz', 'tgz', 'rar', '7z', 'bz2', 'xz'],
  'pdf',
];

export const STATIC_EXT_PATTERN = '^[a-z0-9]{1,10}$';
export const MAX_STATIC_EXTS = 100;

/** A file extension without its dot, in lower case. */
export const StaticExt = Type.String({
  pattern: STATIC_EXT_PATTERN,
  description: '1 to 10 lower-case letters or digits, without the dot',
});

/** The protection section of a site (SiteSettings.protection). */
export const SiteProtection = Type.Object(
  {
    rule_group_id: Type.Union([Id, Type.Null()]),
    /** Used instead of rule_group_id while `under_attack` is on. */
    attack_rule_group_id: Type.Union([Id, Type.Null()]),
    under_attack: Type.Boolean(),
    /** Addresses never challenged, rate limited or banned (ACL deny entries still apply). */
    whitelist: Type.Array(Cidr, { maxItems: 1000, description: 'at most 1000 addresses or CIDR ranges' }),
    waf: Type.Object(
      {
        mode: WafMode,
        paranoia: Type.Integer({ minimum: 1, maximum: 4, description: 'a paranoia level from 1 to 4' }),
        exclusions: Type.Array(Type.Integer({ minimum: 1, maximum: 9_999_999 }), { maxItems: 200 }),
        /**
         * Inspect static files too (back ends that route paths such as /index.php/x.png dynamically);
         * absent: false. Neither field has a schema default: the master's validator would write it
         * into every site saved, and a site should keep following DEFAULT_STATIC_EXTS.
         */
        inspect_static: Type.Optional(Type.Boolean()),
        /** The extensions counted as static files; absent: DEFAULT_STATIC_EXTS. */
        static_exts: Type.Optional(
          Type.Array(StaticExt, {
            maxItems: MAX_STATIC_EXTS,
            description: `at most ${MAX_STATIC_EXTS} file extensions of 1 to 10 lower-case letters or digits`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type SiteProtection = Static<typeof SiteProtection>;

export const DEFAULT_SITE_PROTECTION: SiteProtection = {
  rule_group_id: null,
  attack_rule_group_id: null,
  under_attack: false,
  whitelist: [],
  waf: { mode: 'off', paranoia: 1, exclusions: [] },
};

/** A rule group as an edge runs it: matches and filters resolved into each line. */
export const EdgeRuleGroup = Type.Object({
  id: Id,
  rules: Type.Array(
    Type.Object({
      /** Ids for the block log. */
      match_id: Id,
      filter_id: Id,
      conditions: MatchSettings.properties.conditions,
      filter: FilterSettings,
      action: RuleAction,
      ban_seconds: RuleLine.properties.ban_seconds,
    }),
    { maxItems: 100 },
  ),
});
export type EdgeRuleGroup = Static<typeof EdgeRuleGroup>;

/** A manual ban: site 0 is every site (an admin's global ban). `expires_at` in Unix seconds. */
export const EdgeBan = Type.Object({
  site_id: IdOrZero,
  cidr: Cidr,
  expires_at: Type.Integer({ minimum: 0 }),
});
export type EdgeBan = Static<typeof EdgeBan>;

/** An unban of an address the edges banned on their own (a rule with action ban), until `until`. */
export const EdgeUnban = Type.Object({
  site_id: IdOrZero,
  ip: Type.String({ maxLength: 45, pattern: '^[0-9a-fA-F:.]+$' }),
  until: Type.Integer({ minimum: 0 }),
});
export type EdgeUnban = Static<typeof EdgeUnban>;

/** The protection part of a snapshot: rule groups any site uses, ACLs by site id, bans, unbans. */
export const EdgeProtection = Type.Object({
  rule_groups: Type.Array(EdgeRuleGroup),
  acls: Type.Array(Type.Object({ site_id: Id, entries: Type.Array(AclEntry) })),
  bans: Type.Array(EdgeBan),
  unbans: Type.Array(EdgeUnban),
});
export type EdgeProtection = Static<typeof EdgeProtection>;

/**
 * What the edge writes in the access log's `block_reason` when protection acted on a request:
 * `kind=rate;action=ban;group=3;match=7;filter=2;detail=120 requests in 60 s`. Keys other than kind
 * and action are left out when they do not apply; detail comes last and holds no `;`.
 */
export const BlockKind = Type.Union(
  [
    Type.Literal('acl'),
    Type.Literal('ban'),
    Type.Literal('rate'),
    Type.Literal('challenge'),
    Type.Literal('delay'),
    Type.Literal('waf'),
    Type.Literal('hotlink'),
    Type.Literal('urlauth'),
  ],
  { description: 'acl, ban, rate, challenge, delay, waf, hotlink or urlauth' },
);
export type BlockKind = Static<typeof BlockKind>;

export interface BlockReason {
  kind: BlockKind;
  /** deny/block (403), ban (banned now), banned (already banned), challenge (page sent), failed (bad cookie), log, delay, detect. */
  action: string;
  group: number;
  match: number;
  filter: number;
  detail: string;
}

const BLOCK_KINDS = new Set(['acl', 'ban', 'rate', 'challenge', 'delay', 'waf', 'hotlink', 'urlauth']);

export function parseBlockReason(text: string): BlockReason | null {
  if (!text.startsWith('kind=')) return null;
  const reason: BlockReason = { kind: 'acl', action: '', group: 0, match: 0, filter: 0, detail: '' };
  const detailAt = text.indexOf(';detail=');
  const head = detailAt === -1 ? text : text.slice(0, detailAt);
  if (detailAt !== -1) reason.detail = text.slice(detailAt + ';detail='.length);
  for (const part of head.split(';')) {
    const [key, value = ''] = part.split('=', 2) as [string, string?];
    if (key === 'kind') {
      if (!BLOCK_KINDS.has(value)) return null;
      reason.kind = value as BlockKind;
    } else if (key === 'action') reason.action = value;
    else if (key === 'group' || key === 'match' || key === 'filter') reason[key] = Number(value) || 0;
  }
  return reason.action === '' ? null : reason;
}

export function formatBlockReason(reason: BlockReason): string {
  const parts = [`kind=${reason.kind}`, `action=${reason.action}`];
  for (const key of ['group', 'match', 'filter'] as const) if (reason[key] > 0) parts.push(`${key}=${reason[key]}`);
  if (reason.detail !== '') parts.push(`detail=${reason.detail.replaceAll(';', ',')}`);
  return parts.join(';');
}
