import { isIP } from 'node:net';
import { Cidr, COUNTRY_CODES, type Condition, conditionRegExp } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { invalidParam } from '../../errors.ts';

const cidrShape = Compile(Cidr);
const countries = new Set(COUNTRY_CODES);
const MAX_REGEX_LENGTH = 256;

/** Why `text` is not an IPv4/IPv6 address or CIDR range, or null: the schema only shapes IPv6 loosely. */
export function cidrProblem(text: string): string | null {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (!cidrShape.Check(text) || rest.length > 0 || family === 0) {
    return `${text} is not an IP address or CIDR range`;
  }
  if (prefix !== undefined && (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) {
    return `${text} has a prefix length out of range`;
  }
  return null;
}

/** Why `text` is not an ISO 3166-1 alpha-2 country code in upper case, or null. */
export function countryProblem(text: string): string | null {
  return countries.has(text)
    ? null
    : `${text} is not an ISO 3166-1 alpha-2 country code (two upper-case letters, such as CN)`;
}

/** The quantifier at `at`: none, one that repeats a bounded number of times, or one without bound. */
function quantifierAt(pattern: string, at: number): 'none' | 'bounded' | 'unbounded' {
  const char = pattern[at];
  if (char === '+' || char === '*') return 'unbounded';
  if (char !== '{') return 'none';
  const range = /^\{([0-9]+)(,([0-9]*))?\}/.exec(pattern.slice(at));
  if (!range) return 'none';
  if (range[2] !== undefined && range[3] === '') return 'unbounded';
  const most = Number(range[3] ?? range[1]);
  return most > 1 ? 'bounded' : 'none';
}

/**
 * Whether a repeated group itself repeats something, as in `(a+)+` or `(\w*)*`: a backtracking
 * engine can take exponential time on such a pattern. Escapes and character classes are skipped.
 */
export function repeatsRepetition(pattern: string): boolean {
  const outer: boolean[] = [];
  let repeats = false;
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    if (char === '\\') {
      at++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      outer.push(repeats);
      repeats = false;
    } else if (char === ')') {
      const inner: boolean = repeats;
      repeats = (outer.pop() ?? false) || inner;
      const after = quantifierAt(pattern, at + 1);
      if (inner && after === 'unbounded') return true;
      if (after !== 'none') repeats = true;
    } else if (quantifierAt(pattern, at) !== 'none') {
      repeats = true;
    }
  }
  return false;
}

/** Why `pattern` cannot be a match value of op regex, or null. The edge runs it as PCRE with a match limit. */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > MAX_REGEX_LENGTH) return `a regular expression has at most ${MAX_REGEX_LENGTH} characters`;
  try {
    conditionRegExp(pattern);
  } catch {
    return `${pattern} is not a valid regular expression`;
  }
  if (repeatsRepetition(pattern)) {
    return `${pattern} repeats a repeated group (like (a+)+), which can take exponential time`;
  }
  return null;
}

/** Rules of conditions the schema cannot express; `path` names the list, e.g. `conditions`. */
export function checkConditions(conditions: readonly Condition[], path: string) {
  for (const [index, condition] of conditions.entries()) {
    checkCondition(condition, `${path}/${index}`);
  }
}

export function checkCondition(condition: Condition, at: string) {
  if (condition.field === 'ip' && condition.op !== 'cidr')
    throw invalidParam(`${at}/op`, 'field ip compares with cidr');
  if (condition.op === 'cidr' && condition.field !== 'ip') throw invalidParam(`${at}/op`, 'cidr is for field ip only');
  if (condition.field === 'country' && condition.op !== 'equals') {
    throw invalidParam(`${at}/op`, 'field country compares with equals (any one of the countries listed)');
  }
  if (condition.field === 'header' && condition.header === undefined) {
    throw invalidParam(`${at}/header`, 'is required for field header');
  }
  if (condition.field !== 'header' && condition.header !== undefined) {
    throw invalidParam(`${at}/header`, 'is only for field header');
  }
  for (const [index, value] of condition.values.entries()) {
    const problem =
      condition.field === 'country'
        ? countryProblem(value)
        : condition.op === 'cidr'
          ? cidrProblem(value)
          : condition.op === 'regex'
            ? regexProblem(value)
            : null;
    if (problem) throw invalidParam(`${at}/values/${index}`, problem);
  }
}
