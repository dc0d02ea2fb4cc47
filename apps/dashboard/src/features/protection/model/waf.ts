import { DEFAULT_STATIC_EXTS, MAX_STATIC_EXTS, SiteProtection, STATIC_EXT_PATTERN } from '@rampart/contracts';
import type { WafDefaults } from '../api.ts';
import { type Problem, quoted, rangeOf } from './problems.ts';

export type WafMode = WafDefaults['mode'];
export const WAF_MODES: readonly WafMode[] = ['off', 'detect', 'block'];

const WAF = SiteProtection.properties.waf.properties;
export const PARANOIA = rangeOf(WAF.paranoia);
const EXCLUSION = rangeOf(WAF.exclusions.items);
const MAX_EXCLUSIONS = (WAF.exclusions as { maxItems?: number }).maxItems ?? 200;

/**
 * The WAF fields of a form: rule ids to skip as text, separated by spaces, commas or lines; whether
 * static files are inspected too, and the extensions counted as static files (a tags select).
 */
export interface WafValues {
  mode: WafMode;
  paranoia: number;
  exclusionsText: string;
  inspectStatic: boolean;
  staticExts: string[];
}

const STATIC_EXT = new RegExp(STATIC_EXT_PATTERN);

/** Extensions as typed, once each: trimmed, in lower case, without a leading dot. */
export const staticExtList = (value: readonly unknown[] | undefined): string[] => [
  ...new Set(
    (value ?? [])
      .filter((ext): ext is string => typeof ext === 'string')
      .map((ext) => ext.trim().toLowerCase().replace(/^\./, ''))
      .filter((ext) => ext !== ''),
  ),
];

export const checkStaticExts = (value: unknown): Problem | undefined => {
  const exts = staticExtList(Array.isArray(value) ? value : []);
  if (exts.length > MAX_STATIC_EXTS) return { key: 'staticExtsMax', values: { max: MAX_STATIC_EXTS } };
  const wrong = exts.find((ext) => !STATIC_EXT.test(ext));
  return wrong === undefined ? undefined : { key: 'staticExt', values: { value: quoted(wrong) } };
};

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

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
  inspectStatic: waf.inspect_static === true,
  staticExts: [...(waf.static_exts ?? DEFAULT_STATIC_EXTS)],
});

/**
 * The settings to send; ids once each, in the order given. The static file fields are sent only when
 * they differ from the defaults, so a site left as it was follows later changes of the default list.
 */
export const wafSettings = (values: WafValues): WafDefaults => {
  const exts = staticExtList(values.staticExts);
  return {
    mode: values.mode,
    paranoia: values.paranoia,
    exclusions: [...new Set(words(values.exclusionsText).map(Number))],
    ...(values.inspectStatic === true ? { inspect_static: true } : {}),
    ...(values.staticExts === undefined || sameSet(exts, DEFAULT_STATIC_EXTS) ? {} : { static_exts: exts }),
  };
};

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
