import type { CreateCcMatchBody } from '@rampart/contracts';
import type { MatchRow } from '../api.ts';
import { type ConditionRow, conditionRow, NEW_CONDITION, toCondition } from './conditions.ts';

export interface MatchDraft {
  name: string;
  conditions: ConditionRow[];
  system?: boolean;
}

export const NEW_MATCH: MatchDraft = { name: '', conditions: [{ ...NEW_CONDITION }] };

export const matchDraft = (row: MatchRow): MatchDraft => ({
  name: row.name,
  conditions: row.conditions.map(conditionRow),
});

/** POST/PUT /v1/cc-matchs; `system` only when an admin asked for it. */
export const matchBody = (draft: MatchDraft): CreateCcMatchBody => ({
  name: draft.name.trim(),
  conditions: draft.conditions.map(toCondition),
  ...(draft.system === true && { system: true }),
});
