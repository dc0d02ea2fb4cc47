import type {
  Condition,
  NotEvaluated,
  PreviewOutcome,
  PreviewRule,
  RuleAction,
  RulePreviewBody,
} from '@rampart/contracts';
import type { FieldPath } from '../../sites/edgeRules.ts';
import type { FilterRow } from '../api.ts';
import { type AclRow, aclEntry } from '../model/acl.ts';
import { filterBody, filterDraft } from '../model/filterPayload.ts';
import { formPath } from '../model/formPath.ts';
import { type GroupDraft, groupBody } from '../model/groupPayload.ts';
import { type MatchDraft, matchBody } from '../model/matchPayload.ts';

/** The periods the preview offers, in hours (the call takes 1 to 24). */
export const PREVIEW_HOURS = [1, 6, 12, 24] as const;
export const DEFAULT_PREVIEW_HOURS = 24;

/** The outcomes in the order the answer lists them: what stops a request first. */
export const PREVIEW_OUTCOMES: readonly PreviewOutcome[] = [
  'block',
  'ban',
  'challenge',
  'delay',
  'log',
  'pass',
  'allow',
];

/** The site's ACL as the section would save it (the entries POST/PUT /v1/acls take). */
export const aclPreviewRule = (rows: readonly AclRow[]): PreviewRule => ({
  type: 'acl',
  entries: rows.map(aclEntry),
});

/** A match's conditions as the drawer would save them, with an existing filter's settings and a line's action. */
export const matchPreviewRule = (draft: MatchDraft, filter: FilterRow, action: RuleAction): PreviewRule => {
  const { name: _name, system: _system, ...settings } = filterBody(filterDraft(filter));
  return {
    type: 'cc_match',
    match: { conditions: matchBody(draft).conditions },
    filter: settings,
    action,
  };
};

/** A rule group's lines as the drawer would save them. */
export const groupPreviewRule = (draft: GroupDraft): PreviewRule => ({
  type: 'rule_group',
  rules: groupBody(draft).rules ?? [],
});

export const previewBody = (siteId: number, hours: number, rule: PreviewRule): RulePreviewBody => ({
  site_id: siteId,
  hours,
  rule,
});

/** A control of the panel itself, which a failure can name. */
export type PanelControl = 'site' | 'hours' | 'filter' | 'action';

export type ErrorTarget = { form: FieldPath } | { control: PanelControl };

/**
 * Where a field the master names (`rule/entries/1/condition/values/0`, `site_id`) is on screen: a
 * field of the editor's form or a control of the panel; undefined when it is neither.
 */
export const errorTarget = (name: FieldPath): ErrorTarget | undefined => {
  const [first, second] = name;
  if (first === 'site_id') return { control: 'site' };
  if (first === 'hours') return { control: 'hours' };
  if (first !== 'rule' || second === undefined) return undefined;
  if (second === 'filter') return { control: 'filter' };
  if (second === 'action' || second === 'ban_seconds') return { control: 'action' };
  // A CC match's conditions sit under `match` in the call and at the form's root in the drawer.
  const rest = second === 'match' ? name.slice(2) : name.slice(1);
  return rest.length > 0 ? { form: formPath(rest) } : undefined;
};

/** Why the access log cannot answer a condition, as far as the condition itself tells. */
export type NotEvaluatedCause = { cause: 'header'; header: string } | { cause: 'regex' };

/** The edge logs these two request headers; any other is not in the access log. */
const LOGGED_HEADERS = ['user-agent', 'referer'];

/** What a condition's cause depends on (a match row's conditions may leave `negate` out). */
export type ConditionKind = Pick<Condition, 'field' | 'op' | 'header'>;

export const causeOf = (condition: ConditionKind): NotEvaluatedCause | undefined => {
  const header = condition.header ?? '';
  if (condition.field === 'header' && !LOGGED_HEADERS.includes(header.toLowerCase()))
    return { cause: 'header', header };
  // The master runs most patterns; one it reports is one whose PCRE syntax it does not translate.
  if (condition.op === 'regex') return { cause: 'regex' };
  return undefined;
};

/** The part of a draft a not-evaluated path points at: the ACL entry, the match condition or the group line. */
export type RulePart = {
  kind: 'entry' | 'condition' | 'line';
  /** 1-based, as the editors number them. */
  index: number;
  /** For a line: which condition of its match, 1-based, when the answer says. */
  condition?: number;
} & Partial<NotEvaluatedCause>;

const INDEXED = /^rule\.(entries|match\.conditions|rules)\[(\d+)\]/;

/**
 * Reads `rule.entries[2].condition` (and the like) against the rule that was sent; a rule group's line
 * is read against its match's conditions when `matchConditions` knows them.
 */
export const rulePart = (
  rule: PreviewRule,
  item: NotEvaluated,
  matchConditions?: (matchId: number) => readonly ConditionKind[] | undefined,
): RulePart | undefined => {
  const found = INDEXED.exec(item.path);
  if (!found?.[1] || found[2] === undefined) return undefined;
  const at = Number(found[2]);
  if (rule.type === 'rule_group' && found[1] === 'rules') {
    const line = rule.rules[at];
    if (!line) return undefined;
    const conditionAt = item.condition;
    const condition = conditionAt === undefined ? undefined : matchConditions?.(line.match_id)?.[conditionAt];
    if (conditionAt === undefined || !condition) return { kind: 'line', index: at + 1 };
    return { kind: 'line', index: at + 1, condition: conditionAt + 1, ...causeOf(condition) };
  }
  const condition =
    rule.type === 'acl' && found[1] === 'entries'
      ? rule.entries[at]?.condition
      : rule.type === 'cc_match' && found[1] === 'match.conditions'
        ? rule.match.conditions[at]
        : undefined;
  if (!condition) return undefined;
  return { kind: rule.type === 'acl' ? 'entry' : 'condition', index: at + 1, ...causeOf(condition) };
};
