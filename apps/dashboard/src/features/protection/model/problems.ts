import { ObjectName } from '@rampart/contracts';
import { fitsSchema } from '../../sites/edgeRules.ts';

/** A value the master would refuse: an i18n key under `protection.rule` and what the message names. */
export interface Problem {
  key: string;
  values?: Record<string, string | number>;
}

interface IntegerLimits {
  minimum?: number;
  maximum?: number;
}

export interface Range {
  min: number;
  max: number;
}

/** The integer range a contracts schema allows, so the forms cannot drift from the master. */
export const rangeOf = (schema: object): Range => {
  const { minimum, maximum } = schema as IntegerLimits;
  return { min: minimum ?? Number.MIN_SAFE_INTEGER, max: maximum ?? Number.MAX_SAFE_INTEGER };
};

export const checkInteger = (value: unknown, range: Range): Problem | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max
    ? undefined
    : { key: 'integer', values: { min: range.min, max: range.max } };

/** Names of matches, filters and rule groups, once trimmed: the contracts' object name. */
export const checkName = (value: unknown): Problem | undefined =>
  typeof value === 'string' && fitsSchema(ObjectName, value.trim()) ? undefined : { key: 'name' };

/** Long values are cut in messages so that the message stays readable. */
export const quoted = (value: string): string => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** The non-empty lines of a one-per-line text box, trimmed. */
export const lines = (text: string | undefined): string[] =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export const firstMisfit = (fits: (value: string) => boolean, values: readonly string[]): string | undefined =>
  values.find((value) => !fits(value));
