import { describe, expect, it } from 'vitest';
import { checkRedirectRegex, RedirectRegexError, targetCaptures, targetDollarsValid } from './redirect-regex.ts';

describe('a redirect rule’s regular expression', () => {
  it.each([
    ['^/old/(.*)$', 1],
    ['^/a/([0-9]+)/(\\w+)\\.html$', 2],
    ['^/(?:en|fr)/docs/([^/]+)/?$', 1],
    ['/img/[A-Za-z0-9_-]{1,64}\\.(png|jpe?g)', 1],
    ['^/x{2,}y*?$', 0],
    ['^/(a|b)(c)(d)(e)(f)(g)(h)(i)(j)$', 9],
    ['^/p\\-q\\.r\\/s$', 0],
    ['^/((ab){1,3})$', 2],
    ['^/(a+)?(b*){2}$', 2],
  ])('accepts %s with %i groups', (source, groups) => {
    expect(checkRedirectRegex(source)).toEqual({ groups });
  });

  it.each([
    ['', 'an empty expression'],
    ['a'.repeat(257), 'at most 256 characters'],
    ['^/(?=x)', 'only (?:…) groups: no lookaround, names or flags at character 3'],
    ['^/(?<name>x)', 'only (?:…) groups: no lookaround, names or flags at character 3'],
    ['^/(?i)x', 'only (?:…) groups: no lookaround, names or flags at character 3'],
    ['^/(a)\\1', '\\1 is not allowed (only \\d \\D \\w \\W \\s \\S, or \\ before punctuation) at character 6'],
    ['^/\\bword', '\\b is not allowed (only \\d \\D \\w \\W \\s \\S, or \\ before punctuation) at character 3'],
    ['^/a++', 'no possessive quantifiers at character 5'],
    [
      '^/(a+)+$',
      'a group repeated by *, + or {n,} must not itself hold *, + or {n,} (it could backtrack without end) at character 3',
    ],
    [
      '^/(a|b*){2,}',
      'a group repeated by *, + or {n,} must not itself hold *, + or {n,} (it could backtrack without end) at character 3',
    ],
    ['^/[[:alpha:]]', '[ inside a class must be escaped at character 4'],
    ['^/a{1001}', 'a repeat up to 1000 at character 4'],
    ['^/a{3,2}', 'a repeat {n,m} with n ≤ m at character 4'],
    ['^/a{x}', '{ must be escaped, or a repeat {n}, {n,} or {n,m} at character 4'],
    ['/a^', '^ only at the start at character 3'],
    ['$/a', '$ only at the end at character 1'],
    ['^/(a', 'a group is not closed at character 3'],
    ['^/a)', 'a ) without its ( at character 4'],
    ['^/[a-', 'a [ is not closed at character 3'],
    ['*/a', 'nothing to repeat before * at character 1'],
    ['^/(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)', 'at most 9 capturing groups at character 30'],
    ['^/é', 'printable ASCII only at character 3'],
    ['^/[z-a]', 'Invalid regular expression: /^/[z-a]/: Range out of order in character class'],
  ])('refuses %s: %s', (source, message) => {
    expect(() => checkRedirectRegex(source)).toThrow(new RedirectRegexError(message));
  });

  it('reads the captures a target uses, and only $ before a digit', () => {
    expect(targetCaptures('https://x.example/$2/a$1?q=$3')).toBe(3);
    expect(targetCaptures('/plain')).toBe(0);
    expect(targetDollarsValid('/a/$1/$9')).toBe(true);
    expect(targetDollarsValid('/a/$x')).toBe(false);
    expect(targetDollarsValid('/a/$0')).toBe(false);
    expect(targetDollarsValid('/a/$')).toBe(false);
  });
});
