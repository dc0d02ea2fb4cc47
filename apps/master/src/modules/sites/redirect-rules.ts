import {
  checkRedirectRegex,
  REDIRECT_PATH_PATTERN,
  RedirectRegexError,
  type SiteRedirectRule,
  type SiteRedirects,
  targetCaptures,
  targetDollarsValid,
} from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { hostMatches } from './hotlink-rules.ts';

const invalid = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);
const PATH = new RegExp(REDIRECT_PATH_PATTERN);
/** Hops followed when looking for a loop between rules. */
const MAX_HOPS = 16;

/** A rule with its expression compiled, for the loop search. */
interface Compiled {
  rule: SiteRedirectRule;
  index: number;
  regex?: RegExp;
}

/**
 * Rules of a site's redirects that the schema cannot express. Throws invalid_param naming the field:
 * a path that is not one, an expression outside the portable subset (redirect-regex.ts), a capture
 * the match does not have, a rewrite to something other than a path, a rule that an earlier one
 * always hides, a switch the site's domains cannot use, and a redirect that comes back to itself
 * (directly or through the other rules and the trailing-slash switch) when its target has no
 * captures, or a prefix rule whose target always falls under its own prefix.
 */
export function checkRedirects(redirects: SiteRedirects, domains: readonly string[]) {
  const compiled: Compiled[] = [];
  const seen = new Map<string, number>();
  for (const [index, rule] of redirects.rules.entries()) {
    const field = `redirects/rules/${index}`;
    let groups = 0;
    let regex: RegExp | undefined;
    if (rule.match === 'regex') {
      try {
        groups = checkRedirectRegex(rule.value).groups;
      } catch (error) {
        if (error instanceof RedirectRegexError) throw invalid(`${field}/value`, error.message);
        throw error;
      }
      regex = new RegExp(rule.value);
    } else {
      if (!PATH.test(rule.value)) {
        throw invalid(
          `${field}/value`,
          'a path starting with /, then letters, digits and - . _ ~ ! & ( ) * + , = : @ % / [ ]',
        );
      }
      groups = rule.match === 'prefix' ? 1 : 0;
    }
    const key = `${rule.match} ${rule.value}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw invalid(`${field}/value`, `the same as redirects/rules/${earlier}, which always matches first`);
    }
    seen.set(key, index);
    checkTarget(rule, groups, field);
    compiled.push({ rule, index, regex });
  }
  checkHostSwitch(redirects, domains);
  for (const entry of compiled) checkLoop(entry, compiled, redirects, domains);
}

function checkTarget(rule: SiteRedirectRule, groups: number, field: string) {
  const { target } = rule;
  if (!targetDollarsValid(target)) throw invalid(`${field}/target`, '$ only as a capture, $1 to $9');
  const captures = targetCaptures(target);
  if (captures > groups) {
    throw invalid(
      `${field}/target`,
      groups === 0
        ? `$${captures}: an exact match has no captures`
        : rule.match === 'prefix'
          ? `$${captures}: a prefix match has only $1 (the rest of the path)`
          : `$${captures}: the expression has ${groups} group${groups === 1 ? '' : 's'}`,
    );
  }
  if (rule.action === 'rewrite') {
    if (!target.startsWith('/')) throw invalid(`${field}/target`, 'a rewrite needs a path starting with /');
    if (target.includes('?')) throw invalid(`${field}/target`, 'a rewrite changes the path only: no ? in it');
    return;
  }
  if (target.startsWith('/')) return;
  try {
    new URL(target.replaceAll(/\$[1-9]/g, 'x'));
  } catch {
    throw invalid(`${field}/target`, `${target} is not a URL`);
  }
}

function checkHostSwitch(redirects: SiteRedirects, domains: readonly string[]) {
  if (redirects.host === 'off') return;
  const names = new Set(domains);
  const pairs = domains.filter((domain) => !domain.startsWith('*.') && !domain.startsWith('www.'));
  const usable = pairs.some((apex) => names.has(`www.${apex}`));
  if (!usable) {
    throw invalid(
      'redirects/host',
      `${redirects.host === 'to_www' ? 'to_www' : 'to_apex'} needs a domain and its www. name both on the site (say example.com and www.example.com)`,
    );
  }
}

/** The path of a redirect's target when it stays on the site, else undefined. */
function sameSitePath(target: string, domains: readonly string[]): string | undefined {
  let path = target;
  if (!target.startsWith('/')) {
    const url = new URL(target.replaceAll(/\$[1-9]/g, 'x'));
    const host = url.hostname.toLowerCase();
    if (!domains.some((domain) => hostMatches(domain, host))) return undefined;
    const slash = target.indexOf('/', target.indexOf('//') + 2);
    path = slash === -1 ? '/' : target.slice(slash);
  }
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** The rule the edge applies to a path: the first that matches. */
function firstMatch(path: string, rules: readonly Compiled[]): Compiled | undefined {
  return rules.find(({ rule, regex }) =>
    rule.match === 'exact'
      ? path === rule.value
      : rule.match === 'prefix'
        ? path.startsWith(rule.value)
        : (regex as RegExp).test(path),
  );
}

/** The trailing-slash switch's redirect of a path, if it has one. */
function slashRedirect(path: string, mode: SiteRedirects['trailing_slash']): string | undefined {
  if (mode === 'add' && !path.endsWith('/') && !path.slice(path.lastIndexOf('/')).includes('.')) return `${path}/`;
  if (mode === 'remove' && path.length > 1 && path.endsWith('/')) return path.slice(0, -1);
  return undefined;
}

function checkLoop(entry: Compiled, rules: readonly Compiled[], redirects: SiteRedirects, domains: readonly string[]) {
  const { rule, index } = entry;
  if (rule.action !== 'redirect') return;
  const field = `redirects/rules/${index}/target`;
  const path = sameSitePath(rule.target, domains);
  if (path === undefined) return;
  const dollar = path.indexOf('$');
  if (dollar !== -1) {
    // Only a prefix rule's output is known well enough: `/a` → `/a/x$1` always matches `/a` again.
    const fixed = path.slice(0, dollar);
    if (rule.match === 'prefix' && fixed.startsWith(rule.value)) {
      throw invalid(
        field,
        `every target starts with ${rule.value}, which this rule matches again: the redirect would loop`,
      );
    }
    return;
  }
  const visited = [path];
  let current = path;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const slashed = slashRedirect(current, redirects.trailing_slash);
    let next: string | undefined;
    if (slashed !== undefined) next = slashed;
    else {
      const match = firstMatch(current, rules);
      if (match?.rule.action !== 'redirect') return;
      next = sameSitePath(match.rule.target, domains);
      if (next === undefined || next.includes('$')) return;
    }
    if (visited.includes(next)) {
      throw invalid(
        field,
        next === path && hop === 0
          ? `${path} is matched by this rule again: the redirect would loop`
          : `${visited.concat(next).join(' → ')}: the redirects would loop`,
      );
    }
    visited.push(next);
    current = next;
  }
}
