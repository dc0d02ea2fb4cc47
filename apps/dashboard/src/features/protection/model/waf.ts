import { SiteProtection } from '@rampart/contracts';
import type { WafDefaults } from '../api.ts';
import { type Problem, rangeOf } from './problems.ts';

export type WafMode = WafDefaults['mode'];
export const WAF_MODES: readonly WafMode[] = ['off', 'detect', 'block'];

const WAF = SiteProtection.properties.waf.properties;
export const PARANOIA = rangeOf(WAF.paranoia);
const EXCLUSION = rangeOf(WAF.exclusions.items);
const MAX_EXCLUSIONS = (WAF.exclusions as { maxItems?: number }).maxItems ?? 200;

/** The WAF fields of a form: rule ids to skip as text, separated by spaces, commas or lines. */
export interface WafValues {
  mode: WafMode;
  paranoia: number;
  exclusionsText: string;
}

const words = (text: string | undefined): string[] => (text ?? '').split(/[\s,]+/).filter((word) => word !== '');

export const checkExclusions = (text: string | undefined): Problem | undefined => {
  const ids = words(text);
  if (ids.length > MAX_EXCLUSIONS) return { key: 'exclusionsMax', values: { max: MAX_EXCLUSIONS } };
  const wrong = ids.find((id) => {
    if (!/^[0-9]{1,7}$/.test(id)) return true;
    const number = Number(id);
    return number < EXCLUSION.min || number > EXCLUSION.max;
  });
  return wrong === undefined ? undefined : { key: 'exclusion', values: { value: wrong, max: EXCLUSION.max } };
};

export const wafValues = (waf: WafDefaults): WafValues => ({
  mode: waf.mode,
  paranoia: waf.paranoia,
  exclusionsText: waf.exclusions.join(' '),
});

/** The settings to send; ids once each, in the order given. */
export const wafSettings = (values: WafValues): WafDefaults => ({
  mode: values.mode,
  paranoia: values.paranoia,
  exclusions: [...new Set(words(values.exclusionsText).map(Number))],
});

/** The WAF rule ids of a block log entry's detail (`rules 942100,942190: SQL Injection ...`). */
export const wafRuleIds = (detail: string): number[] => {
  const listed = /^rules ([0-9,]+)/.exec(detail)?.[1] ?? '';
  return [
    ...new Set(
      listed
        .split(',')
        .filter((id) => /^[0-9]{1,7}$/.test(id))
        .map(Number),
    ),
  ].filter((id) => id >= EXCLUSION.min && id <= EXCLUSION.max);
};

/** A site's exclusions with `ids` added (each once); null when they would go past the limit. */
export const withExclusions = (current: readonly number[], ids: readonly number[]): number[] | null => {
  const next = [...new Set([...current, ...ids])];
  return next.length > MAX_EXCLUSIONS ? null : next;
};
