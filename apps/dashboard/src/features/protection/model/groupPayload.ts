import { type CreateCcRuleGroupBody, type RuleAction, RuleLine, RuleLines } from '@rampart/contracts';
import type { RuleGroupRow } from '../api.ts';
import { checkInteger, type Problem, rangeOf } from './problems.ts';

/** A line of the group editor; ids are undefined until picked. */
export interface LineRow {
  match_id?: number;
  filter_id?: number;
  action: RuleAction;
  ban_seconds?: number | null;
}

export interface GroupDraft {
  name: string;
  rules: LineRow[];
  system?: boolean;
}

export const RULE_ACTIONS: readonly RuleAction[] = ['block', 'ban', 'log'];
export const MAX_LINES = (RuleLines as { maxItems?: number }).maxItems ?? 100;
export const LINE_BAN_SECONDS = rangeOf(RuleLine.properties.ban_seconds);
const DEFAULT_BAN_SECONDS = 600;

export const NEW_LINE: LineRow = { action: 'block', ban_seconds: DEFAULT_BAN_SECONDS };
export const NEW_GROUP: GroupDraft = { name: '', rules: [{ ...NEW_LINE }] };

export const groupDraft = (row: RuleGroupRow): GroupDraft => ({
  name: row.name,
  rules: row.rules.map((line) => ({ ...line })),
});

export const checkLineCount = (count: number): Problem | undefined =>
  count <= MAX_LINES ? undefined : { key: 'lines', values: { max: MAX_LINES } };

export const checkPicked = (id: unknown): Problem | undefined =>
  typeof id === 'number' && Number.isInteger(id) && id >= 1 ? undefined : { key: 'pick' };

export const checkLineBanSeconds = (value: unknown): Problem | undefined => checkInteger(value, LINE_BAN_SECONDS);

/** POST/PUT /v1/cc-rules: the lines in their order. */
export const groupBody = (draft: GroupDraft): CreateCcRuleGroupBody => ({
  name: draft.name.trim(),
  rules: draft.rules.map((line) => ({
    match_id: line.match_id ?? 0,
    filter_id: line.filter_id ?? 0,
    action: line.action,
    ban_seconds: line.ban_seconds ?? DEFAULT_BAN_SECONDS,
  })),
  ...(draft.system === true && { system: true }),
});
