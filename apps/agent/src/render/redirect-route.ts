import {
  checkRedirectRegex,
  REDIRECT_PATH_PATTERN,
  REDIRECT_TARGET_PATTERN,
  RedirectRegexError,
  redirectsInUse,
  type SiteRedirects,
  targetCaptures,
  targetDollarsValid,
} from '@rampart/contracts';
import { RenderRefusal } from './quote.ts';

/**
 * A site's redirects as the router reads them: the rules in order, each with its target split into
 * literal parts and capture numbers (the router joins them without a pattern), and the host switch
 * as a map from each of the site's names that moves to the name it moves to.
 */
export interface RedirectRoute {
  rules: RedirectRuleRoute[];
  /** Host → the host a request for it is sent to (301); absent: the switch is off. */
  hosts?: Record<string, string>;
  slash?: 'add' | 'remove';
}

export interface RedirectRuleRoute {
  /** e: exact, p: prefix ($1 the rest), r: regular expression. */
  m: 'e' | 'p' | 'r';
  v: string;
  /** For an expression: the literal text every match starts with (tried before the expression). */
  pre?: string;
  /** For an expression: literal text every match holds somewhere (looked for before the expression). */
  need?: string;
  /** The status of a redirect; 0 for a rewrite. */
  s: 0 | 301 | 302 | 307 | 308;
  /** The target: strings as they are, numbers for captures. */
  t: Array<string | number>;
  /** Keep the visitor's query string. */
  q: boolean;
}

/**
 * A string up to `maxLength`. Redirects are data in routes.json, never nginx.conf, and `$`, `{` and
 * `;` have meanings in targets and expressions: the patterns below and the expression check are
 * what keep every other character out.
 */
function text(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== 'string') throw new RenderRefusal(field, 'must be a string');
  if (value.length > maxLength) throw new RenderRefusal(field, `longer than ${maxLength} characters`);
  return value;
}

const PATH = new RegExp(REDIRECT_PATH_PATTERN);
const TARGET = new RegExp(REDIRECT_TARGET_PATTERN);
const STATUSES = new Set([301, 302, 307, 308]);

const META = new Set([...'.[]()|?*+{}^$\\']);
const QUANTIFIERS = new Set(['?', '*', '{']);

/**
 * The literal text every match of an anchored expression starts with (`^/item/([0-9]+)` → `/item/`),
 * so that the router compares a prefix before it runs the expression; '' when there is none (not
 * anchored, or an alternation outside a group).
 */
export function literalPrefix(source: string): string {
  if (!source.startsWith('^')) return '';
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return '';
  }
  let prefix = '';
  for (let i = 1; i < source.length; i++) {
    let c = source[i] as string;
    let width = 1;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      // \d, \w, \s and the like are classes, not literals.
      if (/[A-Za-z0-9]/.test(next)) break;
      c = next;
      width = 2;
    } else if (META.has(c)) break;
    // A character made optional or repeatable by what follows is not always there.
    if (QUANTIFIERS.has(source[i + width] ?? '')) break;
    prefix += c;
    i += width - 1;
    if (source[i + 1] === '+') break;
  }
  return prefix;
}

/**
 * The longest literal text outside groups and classes that every match of an expression holds
 * (`^/(?:en|fr)/legacy/(.*)$` → `/legacy/`), so that the router looks for it (a plain find) before
 * it runs the expression; '' when there is none worth it (fewer than 2 characters) or an
 * alternation outside a group makes every part optional.
 */
export function requiredLiteral(source: string): string {
  let best = '';
  let run = '';
  let depth = 0;
  let inClass = false;
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (inClass) {
      if (c === '\\') i++;
      else inClass = c !== ']';
      continue;
    }
    let literal: string | undefined;
    let width = 1;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!/[A-Za-z0-9]/.test(next)) literal = next;
      width = 2;
    } else if (!META.has(c)) literal = c;
    else if (c === '|' && depth === 0) return '';
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '[') inClass = true;
    const following = source[i + width] ?? '';
    if (literal !== undefined && depth === 0 && !QUANTIFIERS.has(following)) {
      run += literal;
      if (following === '+') end();
    } else end();
    i += width - 1;
  }
  end();
  return best.length >= 2 ? best : '';
}

/** `/a/$1?x=$2` → `['/a/', 1, '?x=', 2]`. */
export function targetParts(target: string): Array<string | number> {
  const parts: Array<string | number> = [];
  let literal = '';
  for (let i = 0; i < target.length; i++) {
    const digit = target.charCodeAt(i + 1) - 48;
    if (target[i] === '$' && digit >= 1 && digit <= 9) {
      if (literal !== '') parts.push(literal);
      parts.push(digit);
      literal = '';
      i++;
    } else literal += target[i];
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

/** The route of a site's redirects; undefined when they do nothing. */
export function redirectRoute(
  redirects: SiteRedirects | undefined,
  hosts: readonly string[],
): RedirectRoute | undefined {
  if (!redirectsInUse(redirects) || redirects === undefined) return undefined;
  const rules = redirects.rules.map((rule, i): RedirectRuleRoute => {
    const field = `redirects.rules[${i}]`;
    const value = text(rule.value, `${field}.value`, 1024);
    let groups = 0;
    if (rule.match === 'regex') {
      try {
        groups = checkRedirectRegex(value).groups;
      } catch (error) {
        if (error instanceof RedirectRegexError) throw new RenderRefusal(`${field}.value`, error.message);
        throw error;
      }
    } else if (rule.match === 'prefix' || rule.match === 'exact') {
      if (!PATH.test(value)) throw new RenderRefusal(`${field}.value`, 'not a path');
      groups = rule.match === 'prefix' ? 1 : 0;
    } else throw new RenderRefusal(`${field}.match`, 'prefix, exact or regex');
    const target = text(rule.target, `${field}.target`, 2048);
    if (!TARGET.test(target) || !targetDollarsValid(target) || targetCaptures(target) > groups) {
      throw new RenderRefusal(`${field}.target`, 'a URL or path with only the captures the match has');
    }
    let status: RedirectRuleRoute['s'] = 0;
    if (rule.action === 'redirect') {
      if (!STATUSES.has(rule.status)) throw new RenderRefusal(`${field}.status`, '301, 302, 307 or 308');
      status = rule.status;
    } else if (rule.action !== 'rewrite' || !target.startsWith('/') || target.includes('?')) {
      throw new RenderRefusal(`${field}.target`, 'a rewrite to a path');
    }
    const pre = rule.match === 'regex' ? literalPrefix(value) : '';
    const need = rule.match === 'regex' ? requiredLiteral(value) : '';
    return {
      m: rule.match === 'exact' ? 'e' : rule.match === 'prefix' ? 'p' : 'r',
      v: value,
      ...(pre === '' ? {} : { pre }),
      ...(need === '' || pre.includes(need) ? {} : { need }),
      s: status,
      t: targetParts(target),
      q: rule.keep_query === true,
    };
  });
  const route: RedirectRoute = { rules };
  if (redirects.host === 'to_www' || redirects.host === 'to_apex') {
    const names = new Set(hosts);
    const moves: Record<string, string> = {};
    for (const host of hosts) {
      if (host.startsWith('*.')) continue;
      if (redirects.host === 'to_www' && !host.startsWith('www.') && names.has(`www.${host}`)) {
        moves[host] = `www.${host}`;
      }
      if (redirects.host === 'to_apex' && host.startsWith('www.') && names.has(host.slice(4))) {
        moves[host] = host.slice(4);
      }
    }
    if (Object.keys(moves).length > 0) route.hosts = moves;
  } else if (redirects.host !== 'off') throw new RenderRefusal('redirects.host', 'off, to_www or to_apex');
  if (redirects.trailing_slash === 'add' || redirects.trailing_slash === 'remove') {
    route.slash = redirects.trailing_slash;
  } else if (redirects.trailing_slash !== 'off') {
    throw new RenderRefusal('redirects.trailing_slash', 'off, add or remove');
  }
  if (route.rules.length === 0 && !route.hosts && !route.slash) return undefined;
  return route;
}
