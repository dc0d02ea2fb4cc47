import {
  checkRedirectRegex,
  DEFAULT_SITE_REDIRECTS,
  REDIRECT_MAX_RULES,
  REDIRECT_PATH_PATTERN,
  REDIRECT_TARGET_MAX_LENGTH,
  REDIRECT_TARGET_PATTERN,
  type RedirectMatch,
  RedirectRegexError,
  type SiteRedirectRule,
  type SiteRedirects,
  targetCaptures,
  targetDollarsValid,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { asciiDomain, domainLines, type FieldPath } from '../edgeRules.ts';

/** The redirects section's values: the stored setting, one row per rule in order. */
export type RedirectsValues = SiteRedirects;

/** A rule as added: a permanent redirect that keeps the query; the user types the paths. */
export const NEW_REDIRECT_RULE: SiteRedirectRule = {
  match: 'prefix',
  value: '',
  action: 'redirect',
  status: 301,
  target: '',
  keep_query: true,
};

/** The stored setting; a site saved before redirects existed reads as the default (none). */
export const storedRedirects = (redirects: SiteRedirects | undefined): SiteRedirects =>
  redirects ?? DEFAULT_SITE_REDIRECTS;

export const redirectsValues = (redirects: SiteRedirects | undefined): RedirectsValues => {
  const stored = storedRedirects(redirects);
  return { ...stored, rules: stored.rules.map((rule) => ({ ...rule })) };
};

/** The whole object PUT /v1/sites/{id} takes: the rules in their order, paths as typed without spaces around. */
export const redirectsBody = (values: RedirectsValues): SiteRedirects => ({
  rules: (values.rules ?? []).map((rule) => ({
    match: rule.match,
    value: (rule.value ?? '').trim(),
    action: rule.action,
    status: rule.status,
    target: (rule.target ?? '').trim(),
    keep_query: rule.keep_query === true,
  })),
  host: values.host,
  trailing_slash: values.trailing_slash,
});

const RULE_FIELDS: ReadonlySet<string> = new Set(['match', 'value', 'action', 'status', 'target', 'keep_query']);

/**
 * The section's field for a server-named field: `redirects/rules/2/value` is that rule's value box
 * (a message about a whole rule shows there too), `redirects/host` the host switch. A message about
 * the whole list names no field of the form (an empty path), so it shows as the usual popup.
 */
export const redirectsFieldPath = (name: FieldPath): FieldPath => {
  const [, field, index, part] = name;
  if (field === 'host' || field === 'trailing_slash') return ['redirects', field];
  if (field !== 'rules' || typeof index !== 'number') return [];
  return ['redirects', 'rules', index, part !== undefined && RULE_FIELDS.has(String(part)) ? part : 'value'];
};

const PATH = new RegExp(REDIRECT_PATH_PATTERN);
const TARGET = new RegExp(REDIRECT_TARGET_PATTERN);

/** The captures a rule's match gives its target: a prefix's $1 is the rest of the path. */
const matchGroups = (match: RedirectMatch, value: string): number | undefined => {
  if (match === 'exact') return 0;
  if (match === 'prefix') return 1;
  try {
    return checkRedirectRegex(value).groups;
  } catch {
    return undefined;
  }
};

/** Where the rules of one row read their row's other fields. */
const rulePath = (index: number, field: keyof SiteRedirectRule) => ['redirects', 'rules', index, field];

/** Form rules from the contract and the master's checks; messages name what is wrong and what is allowed. */
export const redirectRules = (t: TFunction) => ({
  rules: [
    {
      validator: async (_rule, value: unknown[] | undefined) => {
        if ((value?.length ?? 0) > REDIRECT_MAX_RULES)
          throw new Error(t('sites.redirects.rule.rulesMax', { max: REDIRECT_MAX_RULES }));
      },
    },
  ] satisfies Rule[],
  value: (index: number): Rule[] => [
    ({ getFieldValue }) => ({
      validator: async (_rule, raw: string | undefined) => {
        const value = raw?.trim() ?? '';
        const match = getFieldValue(rulePath(index, 'match')) as RedirectMatch;
        if (value === '') {
          throw new Error(t(match === 'regex' ? 'sites.redirects.rule.regexRequired' : 'sites.redirects.rule.path'));
        }
        if (match === 'regex') {
          try {
            checkRedirectRegex(value);
          } catch (error) {
            if (error instanceof RedirectRegexError) {
              throw new Error(t('sites.redirects.rule.regex', { reason: error.message }));
            }
            throw error;
          }
        } else if (!PATH.test(value)) throw new Error(t('sites.redirects.rule.path'));
        const rules = (getFieldValue(['redirects', 'rules']) ?? []) as SiteRedirectRule[];
        const earlier = rules
          .slice(0, index)
          .findIndex((other) => other?.match === match && (other.value ?? '').trim() === value);
        if (earlier !== -1) throw new Error(t('sites.redirects.rule.duplicate', { rule: earlier + 1 }));
      },
    }),
  ],
  target: (index: number): Rule[] => [
    ({ getFieldValue }) => ({
      validator: async (_rule, raw: string | undefined) => {
        const target = raw?.trim() ?? '';
        const action = getFieldValue(rulePath(index, 'action')) as SiteRedirectRule['action'];
        if (target === '') {
          throw new Error(t(action === 'rewrite' ? 'sites.redirects.rule.rewritePath' : 'sites.redirects.rule.target'));
        }
        if (target.length > REDIRECT_TARGET_MAX_LENGTH) {
          throw new Error(t('sites.redirects.rule.targetMax', { max: REDIRECT_TARGET_MAX_LENGTH }));
        }
        if (!targetDollarsValid(target)) throw new Error(t('sites.redirects.rule.dollar'));
        if (action === 'rewrite') {
          if (!target.startsWith('/')) throw new Error(t('sites.redirects.rule.rewritePath'));
          if (target.includes('?')) throw new Error(t('sites.redirects.rule.rewriteQuery'));
        }
        if (!TARGET.test(target) || (!target.startsWith('/') && !URL.canParse(target.replaceAll(/\$[1-9]/g, 'x')))) {
          throw new Error(t(action === 'rewrite' ? 'sites.redirects.rule.rewritePath' : 'sites.redirects.rule.target'));
        }
        const match = getFieldValue(rulePath(index, 'match')) as RedirectMatch;
        const groups = matchGroups(
          match,
          (getFieldValue(rulePath(index, 'value')) as string | undefined)?.trim() ?? '',
        );
        const captures = targetCaptures(target);
        // An expression that does not read is refused at its own box; its groups are unknown here.
        if (groups === undefined || captures <= groups) return;
        if (match === 'exact') throw new Error(t('sites.redirects.rule.exactCaptures', { capture: `$${captures}` }));
        if (match === 'prefix') throw new Error(t('sites.redirects.rule.prefixCaptures', { capture: `$${captures}` }));
        throw new Error(t('sites.redirects.rule.regexCaptures', { capture: `$${captures}`, count: groups }));
      },
    }),
  ],
  host: [
    ({ getFieldValue }) => ({
      validator: async (_rule, value: SiteRedirects['host'] | undefined) => {
        if (value === undefined || value === 'off') return;
        if (!hasWwwPair(domainLines(getFieldValue('domainsText') as string | undefined))) {
          throw new Error(t('sites.redirects.rule.hostPair'));
        }
      },
    }),
  ] satisfies Rule[],
});

/** Whether the site has a domain and its www. name both, which the host switch needs. */
export const hasWwwPair = (domains: readonly string[]): boolean => {
  const names = new Set(domains.map(asciiDomain));
  return [...names].some((name) => !name.startsWith('*.') && !name.startsWith('www.') && names.has(`www.${name}`));
};
