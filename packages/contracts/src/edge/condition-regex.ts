/**
 * A regex condition's pattern as JavaScript reads it, to check that it compiles (the master and the
 * dashboard; the edge runs it as PCRE). PCRE's leading option setting, such as `(?i)` for a caseless
 * match, becomes the RegExp's flags: JavaScript has no such group. Throws a SyntaxError when the
 * pattern does not compile, an option anywhere else included.
 */
export function conditionRegExp(pattern: string): RegExp {
  const options = /^\(\?[ims]+\)/.exec(pattern)?.[0] ?? '';
  // PCRE's s (dot holds \n) only changes what matches, not whether the pattern compiles.
  const flags = [...new Set(options.slice(2, -1).replace('s', ''))].join('');
  return new RegExp(pattern.slice(options.length), flags);
}
