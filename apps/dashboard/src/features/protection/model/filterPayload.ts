import { type CreateCcFilterBody, FilterSettings, type FilterType } from '@rampart/contracts';
import type { FilterRow } from '../api.ts';
import { checkInteger, type Problem, type Range, rangeOf } from './problems.ts';

export type FilterNumberField = 'requests' | 'seconds' | 'valid_seconds' | 'delay_ms';

/** The filter form's values; numbers are null while their box is empty. */
export interface FilterDraft {
  name: string;
  type: FilterType;
  requests?: number | null;
  seconds?: number | null;
  per?: 'ip' | 'ip_url';
  valid_seconds?: number | null;
  delay_ms?: number | null;
  system?: boolean;
}

export const FILTER_TYPES: readonly FilterType[] = ['rate', 'js', 'redirect', 'captcha', 'delay'];

/** The settings each type reads; the others are left out of the body. */
export const FILTER_FIELDS: Record<FilterType, readonly FilterNumberField[]> = {
  rate: ['requests', 'seconds'],
  js: ['valid_seconds'],
  redirect: ['valid_seconds'],
  captcha: ['valid_seconds'],
  delay: ['delay_ms'],
};

export const FILTER_RANGES: Record<FilterNumberField, Range> = {
  requests: rangeOf(FilterSettings.properties.requests),
  seconds: rangeOf(FilterSettings.properties.seconds),
  valid_seconds: rangeOf(FilterSettings.properties.valid_seconds),
  delay_ms: rangeOf(FilterSettings.properties.delay_ms),
};

export const NEW_FILTER: FilterDraft = {
  name: '',
  type: 'rate',
  requests: 60,
  seconds: 60,
  per: 'ip',
  valid_seconds: 3600,
  delay_ms: 1000,
};

/** The row's settings over the defaults, so that switching the type starts from sensible values. */
export const filterDraft = (row: FilterRow): FilterDraft => {
  const draft: FilterDraft = { ...NEW_FILTER, name: row.name, type: row.type };
  for (const field of FILTER_FIELDS[row.type]) {
    const value = row[field];
    if (value !== undefined) draft[field] = value;
  }
  if (row.per !== undefined) draft.per = row.per;
  return draft;
};

export const checkFilterNumber = (field: FilterNumberField, value: unknown): Problem | undefined =>
  checkInteger(value, FILTER_RANGES[field]);

/** POST/PUT /v1/cc-filters: the name, the type and only the settings that type uses. */
export const filterBody = (draft: FilterDraft): CreateCcFilterBody => {
  const body: CreateCcFilterBody = { name: draft.name.trim(), type: draft.type };
  for (const field of FILTER_FIELDS[draft.type]) {
    const value = draft[field];
    if (typeof value === 'number') body[field] = value;
  }
  if (draft.type === 'rate') body.per = draft.per ?? 'ip';
  if (draft.system === true) body.system = true;
  return body;
};
