import {
  COUNTRY_CODES,
  type Condition,
  type ConditionField,
  type ConditionOp,
  conditionRegExp,
  HeaderName,
  MatchSettings,
  MatchValue,
} from '@rampart/contracts';
import { fitsSchema } from '../../sites/edgeRules.ts';
import { isCidr } from './address.ts';
import { firstMisfit, lines, type Problem, quoted } from './problems.ts';

/** A condition as its editor holds it: values as one per line. */
export interface ConditionRow {
  field: ConditionField;
  op: ConditionOp;
  valuesText: string;
  header?: string;
  negate: boolean;
}

export const CONDITION_FIELDS: readonly ConditionField[] = [
  'ip',
  'path',
  'query',
  'method',
  'user_agent',
  'referer',
  'header',
  'host',
  'country',
];

const TEXT_OPS: readonly ConditionOp[] = ['equals', 'prefix', 'contains', 'regex'];

/** The edge compares an IP by CIDR only, a country by its code (any one listed), and every other field as text. */
export const opsFor = (field: ConditionField): readonly ConditionOp[] =>
  field === 'ip' ? ['cidr'] : field === 'country' ? ['equals'] : TEXT_OPS;

const COUNTRIES = new Set(COUNTRY_CODES);
/** An ISO 3166-1 alpha-2 code, in either case (sent in upper case). */
const isCountry = (value: string) => COUNTRIES.has(value.toUpperCase());

export const NEW_CONDITION: ConditionRow = { field: 'path', op: 'prefix', valuesText: '', negate: false };

/** The op to keep when the field changes: the same one when it still applies, else the first that does. */
export const opAfterFieldChange = (field: ConditionField, op: ConditionOp | undefined): ConditionOp => {
  const ops = opsFor(field);
  return op !== undefined && ops.includes(op) ? op : (ops[0] ?? 'equals');
};

const MAX_VALUES = 1000;
const CONDITIONS = MatchSettings.properties.conditions as { minItems?: number; maxItems?: number };

export const checkOp = (field: ConditionField | undefined, op: ConditionOp | undefined): Problem | undefined =>
  field !== undefined && op !== undefined && opsFor(field).includes(op) ? undefined : { key: 'op' };

const isValue = (value: string) => fitsSchema(MatchValue, value);

/** A regex the edge can run: the master also compiles it with JavaScript's RegExp (and refuses nested repeats). */
const compiles = (pattern: string) => {
  try {
    conditionRegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

/**
 * Values: 1 to 1000 lines; country codes for field `country`, CIDR ranges for `cidr`, printable
 * ASCII of at most 256 characters otherwise.
 */
export const checkValues = (
  op: ConditionOp | undefined,
  text: string | undefined,
  field?: ConditionField,
): Problem | undefined => {
  const values = lines(text);
  if (values.length === 0 || values.length > MAX_VALUES) return { key: 'valuesCount', values: { max: MAX_VALUES } };
  if (field === 'country') {
    const wrong = firstMisfit(isCountry, values);
    return wrong === undefined ? undefined : { key: 'country', values: { value: quoted(wrong) } };
  }
  if (op === 'cidr') {
    const wrong = firstMisfit(isCidr, values);
    return wrong === undefined ? undefined : { key: 'cidr', values: { value: quoted(wrong) } };
  }
  const wrong = firstMisfit(isValue, values);
  if (wrong !== undefined) return { key: 'value', values: { value: quoted(wrong) } };
  const badRegex = op === 'regex' ? values.find((value) => !compiles(value)) : undefined;
  return badRegex === undefined ? undefined : { key: 'regex', values: { value: quoted(badRegex) } };
};

export const checkHeader = (field: ConditionField | undefined, header: string | undefined): Problem | undefined => {
  if (field !== 'header') return undefined;
  return header !== undefined && fitsSchema(HeaderName, header.trim()) ? undefined : { key: 'header' };
};

export const checkConditionCount = (count: number): Problem | undefined =>
  count >= (CONDITIONS.minItems ?? 1) && count <= (CONDITIONS.maxItems ?? 16)
    ? undefined
    : { key: 'conditions', values: { max: CONDITIONS.maxItems ?? 16 } };

/** Every problem of one row, first one first: for checks outside a form. */
export const conditionProblem = (row: ConditionRow): Problem | undefined =>
  checkOp(row.field, row.op) ?? checkValues(row.op, row.valuesText, row.field) ?? checkHeader(row.field, row.header);

export const toCondition = (row: ConditionRow): Condition => ({
  field: row.field,
  op: row.op,
  values: row.field === 'country' ? lines(row.valuesText).map((code) => code.toUpperCase()) : lines(row.valuesText),
  ...(row.field === 'header' && { header: (row.header ?? '').trim() }),
  negate: row.negate === true,
});

export const conditionRow = (condition: Condition): ConditionRow => ({
  field: condition.field,
  op: condition.op,
  valuesText: condition.values.join('\n'),
  ...(condition.header !== undefined && { header: condition.header }),
  negate: condition.negate,
});
