import { REDIRECT_REGEX_MAX_LENGTH } from './redirects.ts';

/**
 * The regular expressions a redirect rule may use: a subset that PCRE (the edge) and JavaScript (the
 * master's checks, the dashboard) read the same way, and that cannot backtrack without end.
 * - literals of printable ASCII; `.`; `^` first and `$` last only;
 * - escapes `\d \D \w \W \s \S` and `\` before punctuation;
 * - classes `[…]` and `[^…]` with ranges and the escapes above (no `[:name:]`);
 * - groups `(…)` (at most 9, the captures `$1`…`$9`) and `(?:…)`; alternation `|`;
 * - quantifiers `? * + {n} {n,} {n,m}` (n, m up to 1000), lazy with a trailing `?`; no possessive;
 * - no group repeated without bound (`*`, `+`, `{n,}`) that itself holds an unbounded quantifier
 *   (`(a+)+`: exponential backtracking).
 * Lookaround, backreferences, named groups, flags, `\b`, `\x`, `\p` and other escapes are refused.
 */
export interface RedirectRegexCheck {
  /** Capturing groups. */
  groups: number;
}

export class RedirectRegexError extends Error {}

const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const PUNCTUATION = new Set([...'\\^$.|?*+()[]{}/-_~!@#%&=:;,<>\'"`']);
const MAX_REPEAT = 1000;

interface Parsed {
  /** Whether the piece can match without bound (holds `*`, `+` or `{n,}`). */
  unbounded: boolean;
}

class Parser {
  private at = 0;
  groups = 0;
  private readonly source: string;
  constructor(source: string) {
    this.source = source;
  }

  /** `at`: the index of the character at fault (default: the next one). */
  fail(rule: string, at = this.at): never {
    throw new RedirectRegexError(`${rule} at character ${at + 1}`);
  }

  peek(): string | undefined {
    return this.source[this.at];
  }

  alternation(depth: number): Parsed {
    let unbounded = this.sequence(depth).unbounded;
    while (this.peek() === '|') {
      this.at++;
      unbounded = this.sequence(depth).unbounded || unbounded;
    }
    return { unbounded };
  }

  sequence(depth: number): Parsed {
    let unbounded = false;
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') return { unbounded };
      const start = this.at;
      const atom = this.atom(depth);
      const quantified = this.quantifier();
      if (quantified === 'unbounded' && atom.group && atom.unbounded) {
        this.fail(
          'a group repeated by *, + or {n,} must not itself hold *, + or {n,} (it could backtrack without end)',
          start,
        );
      }
      unbounded = unbounded || atom.unbounded || quantified === 'unbounded';
    }
  }

  atom(depth: number): Parsed & { group: boolean } {
    const start = this.at;
    const c = this.source[this.at++];
    switch (c) {
      case '^':
        if (start !== 0) this.fail('^ only at the start', start);
        return { unbounded: false, group: false };
      case '$':
        if (start !== this.source.length - 1) this.fail('$ only at the end', start);
        return { unbounded: false, group: false };
      case '.':
        return { unbounded: false, group: false };
      case '\\':
        this.escape();
        return { unbounded: false, group: false };
      case '[':
        this.characterClass(start);
        return { unbounded: false, group: false };
      case '(': {
        if (this.peek() === '?') {
          if (this.source[this.at + 1] !== ':') this.fail('only (?:…) groups: no lookaround, names or flags', start);
          this.at += 2;
        } else if (++this.groups > 9) this.fail('at most 9 capturing groups', start);
        if (depth >= 20) this.fail('groups nested at most 20 deep', start);
        const inner = this.alternation(depth + 1);
        if (this.source[this.at++] !== ')') this.fail('a group is not closed', start);
        return { unbounded: inner.unbounded, group: true };
      }
      case ')':
        return this.fail('a ) without its (', start);
      case '*':
      case '+':
      case '?':
      case '{':
        return this.fail(`nothing to repeat before ${c}`, start);
      case ']':
      case '}':
        return this.fail(`${c} must be escaped`, start);
      default:
        if (c === undefined || c < ' ' || c > '~') this.fail('printable ASCII only', start);
        return { unbounded: false, group: false };
    }
  }

  /** After a `\`. */
  escape() {
    const c = this.source[this.at++];
    if (c === undefined) this.fail('a \\ at the end', this.at - 2);
    if (CLASS_ESCAPES.has(c) || PUNCTUATION.has(c)) return;
    this.fail(`\\${c} is not allowed (only \\d \\D \\w \\W \\s \\S, or \\ before punctuation)`, this.at - 2);
  }

  characterClass(start: number) {
    if (this.peek() === '^') this.at++;
    let first = true;
    for (;;) {
      const c = this.source[this.at++];
      if (c === undefined) this.fail('a [ is not closed', start);
      if (c === ']' && !first) return;
      if (c === '[') this.fail('[ inside a class must be escaped', this.at - 1);
      if (c === '\\') this.escape();
      else if (c < ' ' || c > '~') this.fail('printable ASCII only', this.at - 1);
      first = false;
    }
  }

  /** Reads a quantifier, if one follows. */
  quantifier(): 'none' | 'bounded' | 'unbounded' {
    const c = this.peek();
    let kind: 'none' | 'bounded' | 'unbounded' = 'none';
    if (c === '?') kind = 'bounded';
    else if (c === '*' || c === '+') kind = 'unbounded';
    else if (c === '{') {
      const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(this.source.slice(this.at));
      if (!match) this.fail('{ must be escaped, or a repeat {n}, {n,} or {n,m}');
      const min = Number(match[1]);
      const max = match[3] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
      if (min > MAX_REPEAT || (max !== Number.POSITIVE_INFINITY && max > MAX_REPEAT)) {
        this.fail(`a repeat up to ${MAX_REPEAT}`);
      }
      if (max < min) this.fail('a repeat {n,m} with n ≤ m');
      this.at += match[0].length - 1;
      kind = max === Number.POSITIVE_INFINITY ? 'unbounded' : 'bounded';
    }
    if (kind === 'none') return kind;
    this.at++;
    if (this.peek() === '?') this.at++;
    else if (this.peek() === '+') this.fail('no possessive quantifiers');
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || next === '{') this.fail('a quantifier after a quantifier');
    return kind;
  }
}

/** Checks a redirect rule's expression; throws RedirectRegexError saying what is wrong and where. */
export function checkRedirectRegex(source: string): RedirectRegexCheck {
  if (source.length === 0) throw new RedirectRegexError('an empty expression');
  if (source.length > REDIRECT_REGEX_MAX_LENGTH) {
    throw new RedirectRegexError(`at most ${REDIRECT_REGEX_MAX_LENGTH} characters`);
  }
  const parser = new Parser(source);
  parser.alternation(0);
  if (parser.peek() !== undefined) parser.fail('a ) without its (');
  try {
    new RegExp(source);
  } catch (error) {
    throw new RedirectRegexError((error as Error).message);
  }
  return { groups: parser.groups };
}

/** The highest capture `$n` a target uses (0 for none). */
export function targetCaptures(target: string): number {
  let highest = 0;
  for (let i = target.indexOf('$'); i !== -1; i = target.indexOf('$', i + 1)) {
    const digit = target.charCodeAt(i + 1) - 48;
    if (digit >= 1 && digit <= 9 && digit > highest) highest = digit;
  }
  return highest;
}

/** Whether every `$` of a target starts a capture `$1`…`$9`. */
export const targetDollarsValid = (target: string): boolean => /^(?:[^$]|\$[1-9])*$/.test(target);
