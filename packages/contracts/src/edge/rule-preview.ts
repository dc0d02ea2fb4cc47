import { type Static, Type } from 'typebox';
import { Id } from '../fields.ts';
import { AclAction, Condition, FilterSettings, RuleAction, RuleLine } from './protection.ts';

/**
 * POST /v1/rules/preview: what a draft rule would have done to a site's traffic of the last
 * `hours`, evaluated by the master over the site's access log with the edge's semantics. Nothing is
 * saved; the rule is taken exactly as the create calls take it.
 */

/*
 * The branches below are the create calls' shapes without their schema defaults: a default inside a
 * union (anyOf) is not applied by the validator (and refused by its strict mode). What the defaults
 * said holds all the same: `negate` absent is false, `ban_seconds` absent is 600.
 */

/** A condition as matches and ACL entries take it; `negate` absent: false. */
export const PreviewCondition = Type.Object(
  {
    field: Condition.properties.field,
    op: Condition.properties.op,
    values: Condition.properties.values,
    header: Condition.properties.header,
    negate: Type.Optional(Type.Boolean({ description: 'absent: false' })),
  },
  { additionalProperties: false },
);
export type PreviewCondition = Static<typeof PreviewCondition>;

const PreviewConditions = Type.Array(PreviewCondition, {
  minItems: 1,
  maxItems: 16,
  description: '1 to 16 conditions',
});

/** A draft ACL: its entries in order (as POST /v1/acls takes them), the first that holds decides. */
export const PreviewAclRule = Type.Object(
  {
    type: Type.Literal('acl'),
    entries: Type.Array(
      Type.Object({ action: AclAction, condition: PreviewCondition }, { additionalProperties: false }),
      { maxItems: 1000, description: 'at most 1000 entries' },
    ),
  },
  { additionalProperties: false },
);

const BanSeconds = Type.Integer({
  minimum: 1,
  maximum: 2_592_000,
  description: '1 to 2592000 seconds; absent: 600',
});

/** A draft CC match with the filter its requests must pass (as the create calls take them) and the rule line's action. */
export const PreviewCcRule = Type.Object(
  {
    type: Type.Literal('cc_match'),
    match: Type.Object({ conditions: PreviewConditions }, { additionalProperties: false }),
    filter: Type.Object(
      {
        type: FilterSettings.properties.type,
        requests: FilterSettings.properties.requests,
        seconds: FilterSettings.properties.seconds,
        per: FilterSettings.properties.per,
        valid_seconds: FilterSettings.properties.valid_seconds,
        delay_ms: FilterSettings.properties.delay_ms,
      },
      { additionalProperties: false },
    ),
    action: RuleAction,
    ban_seconds: Type.Optional(BanSeconds),
  },
  { additionalProperties: false },
);

/** A draft rule group: its lines (matches and filters by id, the caller's or system ones), in order. */
export const PreviewRuleGroup = Type.Object(
  {
    type: Type.Literal('rule_group'),
    rules: Type.Array(
      Type.Object(
        {
          match_id: RuleLine.properties.match_id,
          filter_id: RuleLine.properties.filter_id,
          action: RuleAction,
          ban_seconds: Type.Optional(BanSeconds),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100, description: 'at most 100 rules' },
    ),
  },
  { additionalProperties: false },
);

export const PreviewRule = Type.Union([PreviewAclRule, PreviewCcRule, PreviewRuleGroup], {
  description: 'a draft ACL (type acl), CC match with its filter (type cc_match) or rule group (type rule_group)',
});
export type PreviewRule = Static<typeof PreviewRule>;

export const RulePreviewBody = Type.Object(
  {
    site_id: Id,
    hours: Type.Integer({ minimum: 1, maximum: 24, default: 24, description: '1 to 24 hours' }),
    rule: PreviewRule,
  },
  { additionalProperties: false },
);
export type RulePreviewBody = Static<typeof RulePreviewBody>;

/**
 * What the rule would have done to a matching request: `allow` (an ACL allow: every later check
 * skipped), `pass` (matched, within its filter's rate), `block` (403), `challenge` (js, redirect or
 * captcha), `delay`, `ban` (blocked, and the address banned), `log` (counted only).
 */
export const PreviewOutcome = Type.Union(
  [
    Type.Literal('allow'),
    Type.Literal('pass'),
    Type.Literal('block'),
    Type.Literal('challenge'),
    Type.Literal('delay'),
    Type.Literal('ban'),
    Type.Literal('log'),
  ],
  { description: 'allow, pass, block, challenge, delay, ban or log' },
);
export type PreviewOutcome = Static<typeof PreviewOutcome>;

const Counted = Type.Object({ value: Type.String(), requests: Type.Integer() });

/** A condition the access log cannot answer: named by its path in `rule`, never guessed. */
export const NotEvaluated = Type.Object({
  /** Where the condition is in the body's `rule`, such as `rule.entries[2].condition`. */
  path: Type.String(),
  /**
   * For a rule group's line (`rule.rules[1].match_id`): which condition of its match, from 0. The
   * match is stored, so the path cannot point into it.
   */
  condition: Type.Optional(Type.Integer({ minimum: 0 })),
  reason: Type.String(),
});
export type NotEvaluated = Static<typeof NotEvaluated>;

export const PreviewSample = Type.Object({
  time: Type.String({ description: 'ISO 8601' }),
  client_ip: Type.String(),
  country: Type.String(),
  method: Type.String(),
  host: Type.String(),
  uri: Type.String(),
  status: Type.Integer(),
  user_agent: Type.String(),
  referer: Type.String(),
  outcome: PreviewOutcome,
});
export type PreviewSample = Static<typeof PreviewSample>;

/** An address a rate filter would have stopped: when it first crossed the rate, and how often it did. */
export const PreviewRateCrossing = Type.Object({
  client_ip: Type.String(),
  first_crossed_at: Type.String({ description: 'ISO 8601' }),
  /** Requests beyond the rate: the ones the filter would have stopped. */
  requests_over: Type.Integer(),
});
export type PreviewRateCrossing = Static<typeof PreviewRateCrossing>;

export const RulePreview = Type.Object({
  site_id: Type.Integer(),
  hours: Type.Integer(),
  from: Type.String({ description: 'ISO 8601' }),
  to: Type.String({ description: 'ISO 8601' }),
  /** Log lines of the site in the range. */
  scanned: Type.Integer(),
  /** Lines whose conditions hold (ACL entries of either action, CC matches whatever their filter did). */
  matched: Type.Integer(),
  /** Lines the rule would have stopped (block, ban or challenge) and their distinct addresses. */
  stopped: Type.Integer(),
  stopped_addresses: Type.Integer(),
  /** Matched lines by what the rule would have done to them; every outcome is present, 0 when none. */
  outcomes: Type.Record(Type.String(), Type.Integer()),
  /** Distinct client addresses among the matched lines. */
  addresses: Type.Integer(),
  top: Type.Object({
    addresses: Type.Array(Counted),
    paths: Type.Array(Counted),
    user_agents: Type.Array(Counted),
    countries: Type.Array(Counted),
  }),
  /** Up to 20 matched lines, newest first. */
  samples: Type.Array(PreviewSample),
  /** For rate filters: the addresses that would have crossed the rate (up to 100, most requests over first). */
  rate_crossings: Type.Array(PreviewRateCrossing),
  not_evaluated: Type.Array(NotEvaluated),
});
export type RulePreview = Static<typeof RulePreview>;
