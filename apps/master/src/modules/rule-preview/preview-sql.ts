import type { Condition } from '@rampart/contracts';
import { type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import { isClickHouse } from '../../db/clickhouse/dialect.ts';
import { cidrKeyRange } from '../../db/ip-key.ts';

/**
 * A condition as a filter the logs database runs before the preview's evaluator sees a line: it
 * holds for every line the condition holds for (and may hold for more), so that only a fraction of
 * the site's lines leave the database. Where SQL cannot say what nginx or PCRE would (an encoded or
 * unresolved path, a pattern beyond the plain subset) the filter is `true` and the evaluator decides.
 */
export type LogDialect = 'sqlite' | 'postgres' | 'clickhouse';

export const logDialect = (logs: Pick<Kysely<object>, 'getExecutor'>): LogDialect =>
  isClickHouse(logs) ? 'clickhouse' : logs.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;
/** Beyond this many values a condition is left to the evaluator: one statement stays small. */
const MAX_VALUES = 200;

const any = (parts: readonly RawBuilder<SqlBool>[]) =>
  parts.length === 0 ? FALSE : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
const all = (parts: readonly RawBuilder<SqlBool>[]) =>
  parts.length === 0 ? TRUE : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;

function contains(dialect: LogDialect, text: RawBuilder<string>, value: string): RawBuilder<SqlBool> {
  if (dialect === 'clickhouse') return sql<SqlBool>`(position(${text}, ${value}) > 0)`;
  if (dialect === 'postgres') return sql<SqlBool>`(strpos(${text}, ${value}) > 0)`;
  return sql<SqlBool>`(instr(${text}, ${value}) > 0)`;
}

/** substr counts characters: equal to a byte prefix for the ASCII values conditions hold. */
const startsWith = (text: RawBuilder<string>, value: string) =>
  sql<SqlBool>`(substr(${text}, 1, ${value.length}) = ${value})`;

/** The path part of the logged $request_uri (before the first ?). */
function rawPath(dialect: LogDialect): RawBuilder<string> {
  if (dialect === 'clickhouse') return sql<string>`splitByChar('?', uri)[1]`;
  if (dialect === 'postgres') return sql<string>`split_part(uri, '?', 1)`;
  return sql<string>`substr(uri, 1, instr(uri || '?', '?') - 1)`;
}

/**
 * A logged path nginx would have rewritten ($uri): escapes, merged slashes, dot segments, a fragment.
 * The whole line is looked at first (cheap), the path part only for lines that hold such a sign.
 * ClickHouse evaluates every operand of and/or: there the whole line only (its query may send a few
 * more lines to the evaluator; at 10 million lines, half the time of a pattern over the path part).
 */
function rewrittenPath(dialect: LogDialect): RawBuilder<SqlBool> {
  const signs = ['%', '//', '/.', '#'];
  const uri = sql<string>`uri`;
  if (dialect === 'clickhouse') return any(signs.map((sign) => contains(dialect, uri, sign)));
  const path = rawPath(dialect);
  return sql<SqlBool>`(${any(signs.map((sign) => contains(dialect, uri, sign)))} and ${any(signs.map((sign) => contains(dialect, path, sign)))})`;
}

/**
 * A pattern of words only (letters, digits, space, _ - /) between |, optionally grouped and after
 * (?i): its words and whether case is ignored (the edge answers such patterns the same way).
 */
export function literalWords(pattern: string): { words: string[]; caseless: boolean } | null {
  const caseless = pattern.startsWith('(?i)');
  let inner = caseless ? pattern.slice(4) : pattern;
  const grouped = /^\(\?:(.*)\)$/.exec(inner) ?? /^\((.*)\)$/.exec(inner);
  if (grouped) inner = grouped[1] ?? '';
  const words = inner.split('|');
  if (!words.every((word) => /^[A-Za-z0-9 _/-]+$/.test(word))) return null;
  return { words: caseless ? words.map((word) => word.toLowerCase()) : words, caseless };
}

/**
 * Patterns RE2 (ClickHouse's match) reads as PCRE does on these texts: no flags, lookaround,
 * backreference or escape of a letter or digit but the plain classes. Not (?i): ClickHouse looks for
 * a pattern's literal part before running RE2, and that search keeps case.
 */
const RE2_SAFE = /^(?:[^\\(]|\\[^A-Za-z0-9]|\\[dDwWbBnrtf]|\((?!\?)|\(\?:)*$/;

/** Also no POSIX or escaped class inside [...] (RE2 refuses a range such as [\d-z]) and no repeat over 999. */
const re2Safe = (pattern: string) =>
  RE2_SAFE.test(pattern) && !/\[[^\]]*(\[:|\\[A-Za-z])/.test(pattern) && !/\{\d{4}/.test(pattern);

/**
 * A literal every text a PCRE pattern holds for must hold: its anchored start (`prefix`) or its
 * longest plain run outside groups (`contains`); null when the pattern has none (an alternation at
 * its top, flags but (?i), nothing plain). Letters in lower case when case is ignored.
 */
export function requiredLiteral(
  pattern: string,
): { text: string; at: 'prefix' | 'contains'; caseless: boolean } | null {
  const caseless = pattern.startsWith('(?i)');
  let body = caseless ? pattern.slice(4) : pattern;
  if (body.startsWith('(?') && !body.startsWith('(?:')) return null;
  const anchored = body.startsWith('^');
  if (anchored) body = body.slice(1);
  const runs: { text: string; start: number }[] = [];
  let run = '';
  let runStart = 0;
  const endRun = () => {
    if (run !== '') runs.push({ text: run, start: runStart });
    run = '';
  };
  let at = 0;
  while (at < body.length) {
    const char = body[at] as string;
    let literal: string | null = null;
    const tokenStart = at;
    if (char === '\\') {
      const next = body[at + 1];
      if (next === undefined) return null;
      literal = /[A-Za-z0-9]/.test(next) ? null : next;
      at += 2;
    } else if (char === '[') {
      at++;
      if (body[at] === '^') at++;
      if (body[at] === ']') at++;
      while (at < body.length && body[at] !== ']') at += body[at] === '\\' ? 2 : 1;
      at++;
    } else if (char === '(') {
      let depth = 0;
      while (at < body.length) {
        const inner = body[at];
        if (inner === '\\') at++;
        else if (inner === '[') {
          at++;
          while (at < body.length && body[at] !== ']') at += body[at] === '\\' ? 2 : 1;
        } else if (inner === '(') depth++;
        else if (inner === ')' && --depth === 0) break;
        at++;
      }
      at++;
    } else if (char === '|') {
      return null;
    } else {
      literal = '.^$)*+?{'.includes(char) ? null : char;
      at++;
    }
    const quantifier = body[at];
    const optional = quantifier === '?' || quantifier === '*' || /^\{0[,}]/.test(body.slice(at));
    const repeated = quantifier === '+' || (quantifier === '{' && /^\{\d/.test(body.slice(at)));
    if (optional || repeated) {
      at += quantifier === '{' ? body.indexOf('}', at) - at + 1 : 1;
      if (body[at] === '?' || body[at] === '+') at++;
    }
    if (literal === null || optional) {
      endRun();
      continue;
    }
    if (run === '') runStart = tokenStart;
    run += literal;
    if (repeated) endRun();
  }
  endRun();
  const first = runs[0];
  const shape = (text: string) => (caseless ? text.toLowerCase() : text);
  if (anchored && first && first.start === 0) return { text: shape(first.text), at: 'prefix', caseless };
  const longest = runs.reduce<{ text: string } | null>(
    (best, item) => (!best || item.text.length > best.text.length ? item : best),
    null,
  );
  return longest ? { text: shape(longest.text), at: 'contains', caseless } : null;
}

/** Path patterns by the literals they require, on the logged URI (literals hold no ?); null if one has none. */
function pathLiterals(dialect: LogDialect, patterns: readonly string[]): Filter | null {
  const parts: RawBuilder<SqlBool>[] = [];
  for (const pattern of patterns) {
    const literal = requiredLiteral(pattern);
    if (!literal || /[?#%]/.test(literal.text)) return null;
    const uri = literal.caseless ? sql<string>`lower(uri)` : sql<string>`uri`;
    parts.push(literal.at === 'prefix' ? startsWith(uri, literal.text) : contains(dialect, uri, literal.text));
  }
  return { sql: any(parts), exact: false };
}

/** A filter and whether it is exact (holds for no more lines than the condition: it may be negated). */
interface Filter {
  sql: RawBuilder<SqlBool>;
  exact: boolean;
}

function regexFilter(dialect: LogDialect, text: RawBuilder<string>, pattern: string): Filter | null {
  const words = literalWords(pattern);
  if (words) {
    const haystack = words.caseless ? sql<string>`lower(${text})` : text;
    return { sql: any(words.words.map((word) => contains(dialect, haystack, word))), exact: true };
  }
  if (dialect === 'clickhouse' && re2Safe(pattern)) {
    return { sql: sql<SqlBool>`match(${text}, ${pattern})`, exact: true };
  }
  const literal = requiredLiteral(pattern);
  if (!literal) return null;
  const haystack = literal.caseless ? sql<string>`lower(${text})` : text;
  const test = literal.at === 'prefix' ? startsWith(haystack, literal.text) : contains(dialect, haystack, literal.text);
  return { sql: test, exact: false };
}

/** One value's test on a text column, or null when SQL cannot narrow it. */
function valueFilter(dialect: LogDialect, op: Condition['op'], text: RawBuilder<string>, value: string): Filter | null {
  if (op === 'equals') return { sql: sql<SqlBool>`(${text} = ${value})`, exact: true };
  if (op === 'prefix') return { sql: startsWith(text, value), exact: true };
  if (op === 'contains') return { sql: contains(dialect, text, value), exact: true };
  if (op === 'regex') return regexFilter(dialect, text, value);
  return null;
}

function textFilter(
  dialect: LogDialect,
  op: Condition['op'],
  text: RawBuilder<string>,
  values: string[],
): Filter | null {
  const parts: RawBuilder<SqlBool>[] = [];
  let exact = true;
  for (const value of values) {
    const part = valueFilter(dialect, op, text, value);
    if (!part) return null;
    parts.push(part.sql);
    exact &&= part.exact;
  }
  return { sql: any(parts), exact };
}

const COLUMNS = {
  method: sql<string>`method`,
  host: sql<string>`host`,
  user_agent: sql<string>`user_agent`,
  referer: sql<string>`referer`,
  country: sql<string>`country`,
} as const;

/** The condition as a filter (negation included), or null when the database cannot narrow it. */
function narrowing(dialect: LogDialect, condition: Condition): RawBuilder<SqlBool> | null {
  const { field, op, values } = condition;
  if (values.length > MAX_VALUES) return null;
  if (field === 'ip') {
    if (condition.negate) return null;
    const ranges = values.map(cidrKeyRange);
    if (ranges.some((range) => range === null)) return null;
    // IPv4 keys sit in ::ffff:0:0/96, so a range there holds IPv4 lines too: more, never fewer.
    return any(
      ranges.map((range) => sql<SqlBool>`(client_ip_key >= ${range?.first} and client_ip_key <= ${range?.last})`),
    );
  }
  const negated = (filter: Filter | null) => {
    if (!filter || (condition.negate && !filter.exact)) return null;
    return condition.negate ? sql<SqlBool>`not ${filter.sql}` : filter.sql;
  };
  if (field === 'path') {
    // Values hold no ? # %: a line whose URI starts with one has a path that starts with it.
    if (values.some((value) => /[?#%]/.test(value))) return null;
    const uri = sql<string>`uri`;
    let filter: Filter | null;
    if (op === 'prefix') filter = { sql: any(values.map((value) => startsWith(uri, value))), exact: true };
    else if (op === 'equals') {
      const ends = (value: string) =>
        sql<SqlBool>`substr(uri, 1, ${value.length + 1}) in (${`${value}?`}, ${`${value}#`})`;
      filter = { sql: any(values.map((value) => sql<SqlBool>`(uri = ${value} or ${ends(value)})`)), exact: true };
    } else if (op === 'contains' && !condition.negate) {
      filter = { sql: any(values.map((value) => contains(dialect, uri, value))), exact: false };
    } else if (op === 'regex' && dialect === 'clickhouse' && !condition.negate) {
      // The literal a pattern requires, on the URI as it is: no path to cut out of each line.
      filter = pathLiterals(dialect, values) ?? textFilter(dialect, op, rawPath(dialect), values);
    } else filter = textFilter(dialect, op, rawPath(dialect), values);
    const test = negated(filter);
    return test && sql<SqlBool>`(${test} or ${rewrittenPath(dialect)})`;
  }
  if (field === 'query') {
    // The query is what follows the first ?: a line holding ?value holds value in its query's start.
    if (condition.negate) return null;
    const uri = sql<string>`uri`;
    if (op !== 'regex') {
      return any(values.map((value) => contains(dialect, uri, op === 'contains' ? value : `?${value}`)));
    }
    const parts: RawBuilder<SqlBool>[] = [];
    for (const value of values) {
      const literal = requiredLiteral(value);
      if (!literal) return null;
      const haystack = literal.caseless ? sql<string>`lower(uri)` : uri;
      parts.push(contains(dialect, haystack, literal.at === 'prefix' ? `?${literal.text}` : literal.text));
    }
    return any(parts);
  }
  let text: RawBuilder<string>;
  let shaped = values;
  if (field === 'header') {
    const name = (condition.header ?? '').toLowerCase();
    if (name === 'user-agent') text = COLUMNS.user_agent;
    else if (name === 'referer') text = COLUMNS.referer;
    else return null;
  } else {
    text = COLUMNS[field];
    if (field === 'method' || field === 'country') shaped = values.map((value) => value.toUpperCase());
    if (field === 'host') shaped = values.map((value) => value.toLowerCase());
  }
  return negated(textFilter(dialect, op, text, shaped));
}

/** Holds for every line `condition` holds for. */
export function conditionFilter(dialect: LogDialect, condition: Condition): RawBuilder<SqlBool> {
  return narrowing(dialect, condition) ?? TRUE;
}

/** Holds for every line where all of `conditions` hold. */
export const allFilter = (dialect: LogDialect, conditions: readonly Condition[]) =>
  all(conditions.map((condition) => conditionFilter(dialect, condition)));

/** Holds for every line where any of `filters` holds. */
export const anyFilter = (filters: readonly RawBuilder<SqlBool>[]) => any(filters);
