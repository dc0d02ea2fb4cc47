import type { Condition } from '@rampart/contracts';
import type { EdgeRequest } from './nginx-request.ts';

/**
 * The edge's conditions (apps/agent/lua/rampart/conditions.lua) over a request rebuilt from the
 * access log. The cases in apps/agent/lua/test/condition-vectors.json run through both, so the two
 * cannot drift. A condition the log cannot answer is `not_evaluated`, never guessed.
 */
export type RequestTest = (request: EdgeRequest) => boolean;

export type CompiledCondition = { kind: 'test'; test: RequestTest } | { kind: 'not_evaluated'; reason: string };

type TextField = 'uri' | 'args' | 'request_method' | 'http_user_agent' | 'http_referer' | 'host' | 'rampart_country';

const FIELD_VARIABLE: Record<Exclude<Condition['field'], 'ip' | 'header'>, TextField> = {
  path: 'uri',
  query: 'args',
  method: 'request_method',
  user_agent: 'http_user_agent',
  referer: 'http_referer',
  host: 'host',
  country: 'rampart_country',
};

/** Headers the access log keeps, by their lower-case names. */
const LOGGED_HEADERS: Record<string, TextField> = { 'user-agent': 'http_user_agent', referer: 'http_referer' };

// ---- Addresses (cidr.lua: IPv4 ranges hold IPv4 addresses only, IPv6 ranges IPv6 ones; host bits ignored).

/** An IPv4 address as a number, read char by char as cidr.lua does; null for anything else. */
function v4Number(text: string): number | null {
  let n = 0;
  let part = -1;
  let dots = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 46) {
      if (part < 0 || dots === 3) return null;
      n = n * 256 + part;
      part = -1;
      dots++;
    } else if (code >= 48 && code <= 57) {
      part = (part < 0 ? 0 : part) * 10 + code - 48;
      if (part > 255) return null;
    } else {
      return null;
    }
  }
  if (dots !== 3 || part < 0) return null;
  return n * 256 + part;
}

/** `test` answering each distinct text once (lines repeat their addresses, paths and agents). */
function remembered(test: (text: string) => boolean): (text: string) => boolean {
  const answers = new Map<string, boolean>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      if (answers.size >= 100_000) answers.clear();
      answer = test(text);
      answers.set(text, answer);
    }
    return answer;
  };
}

function v6Number(text: string): bigint | null {
  if (!text.includes(':') || /[^0-9a-fA-F:.]/.test(text)) return null;
  const gap = text.indexOf('::');
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const v4 = v4Number(piece);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        if (piece.length === 0 || piece.length > 4) return null;
        out.push(Number.parseInt(piece, 16));
      }
    }
    return out;
  };
  const left = groups(gap >= 0 ? text.slice(0, gap) : text);
  const right = groups(gap >= 0 ? text.slice(gap + 2) : '');
  if (!left || !right) return null;
  const missing = 8 - left.length - right.length;
  if ((gap >= 0 && missing < 1) || (gap < 0 && missing !== 0)) return null;
  let n = 0n;
  for (const group of [...left, ...new Array<number>(missing).fill(0), ...right]) n = (n << 16n) | BigInt(group);
  return n;
}

/** An address set: whether it holds the client address. */
export function cidrTest(values: readonly string[]): ((address: string) => boolean) | null {
  const v4: { bits: number; key: number }[] = [];
  const v6: { bits: bigint; key: bigint }[] = [];
  for (const text of values) {
    const [address = '', prefix] = text.split('/');
    const four = v4Number(address);
    if (four !== null) {
      const bits = prefix === undefined ? 32 : Number(prefix);
      if (!(bits >= 0 && bits <= 32)) return null;
      v4.push({ bits, key: Math.floor(four / 2 ** (32 - bits)) });
      continue;
    }
    const six = v6Number(address);
    if (six === null) return null;
    const bits = prefix === undefined ? 128 : Number(prefix);
    if (!(bits >= 0 && bits <= 128)) return null;
    v6.push({ bits: BigInt(128 - bits), key: six >> BigInt(128 - bits) });
  }
  return remembered((address) => {
    const four = v4Number(address);
    if (four !== null) return v4.some((range) => Math.floor(four / 2 ** (32 - range.bits)) === range.key);
    if (v6.length === 0) return false;
    const six = v6Number(address);
    return six !== null && v6.some((range) => six >> range.bits === range.key);
  });
}

// ---- Regular expressions: the edge runs PCRE (ngx.re.find "jo", no UTF mode, on bytes).

/** Escapes PCRE reads otherwise than JavaScript (anchors, classes, \Q..\E, \x{..}, \v): not translated. */
const PCRE_ONLY_ESCAPES = new Set([...'AZzGKQEhHvVRXCeNgkopPaxu']);

/**
 * The PCRE pattern as a JavaScript RegExp with the same meaning on byte strings, or null when it uses
 * what this translation does not cover (the condition is then reported, not guessed).
 */
export function pcreToRegExp(pattern: string): RegExp | null {
  let flags = '';
  let body = pattern;
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(body);
  if (leading) {
    for (const flag of leading[1] ?? '') {
      if (flag !== 'i' && flag !== 'm' && flag !== 's') return null;
      if (!flags.includes(flag)) flags += flag;
    }
    body = body.slice(leading[0].length);
  }
  const multiline = flags.includes('m');
  const dotAll = flags.includes('s');
  let out = '';
  let inClass = false;
  for (let at = 0; at < body.length; at++) {
    const char = body[at] as string;
    if (char === '\\') {
      const next = body[at + 1];
      if (next === undefined) return null;
      at++;
      if (PCRE_ONLY_ESCAPES.has(next)) {
        // \x followed by two hex digits means the same in both.
        if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(body.slice(at + 1, at + 3))) {
          out += `\\x${body.slice(at + 1, at + 3)}`;
          at += 2;
          continue;
        }
        return null;
      }
      // JavaScript's \s also holds U+00A0 and U+FEFF: PCRE's (without UTF) only these six bytes.
      if (next === 's') out += inClass ? '\\t\\n\\v\\f\\r ' : '[\\t\\n\\v\\f\\r ]';
      else if (next === 'S') {
        if (inClass) return null;
        out += '[^\\t\\n\\v\\f\\r ]';
      } else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (char === '[' && body[at + 1] === ':') return null;
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      // PCRE reads a ] first in a class as a member; JavaScript as the end of an empty class.
      const start = body[at + 1] === '^' ? at + 2 : at + 1;
      if (body[start] === ']') return null;
      inClass = true;
      out += char;
    } else if (char === '(' && body[at + 1] === '?') {
      const rest = body.slice(at + 2);
      if (!/^(:|=|!|<=|<!|<[A-Za-z])/.test(rest)) return null;
      out += char;
    } else if (char === '.') {
      // PCRE's dot stops at \n only (JavaScript's also at \r).
      out += dotAll ? '[\\s\\S]' : '[^\\n]';
    } else if (char === '$' && !multiline) {
      // PCRE's $ also holds before a final \n.
      out += '(?=\\n?$)';
    } else {
      out += char;
    }
  }
  try {
    return new RegExp(out, flags.replace('s', ''));
  } catch {
    return null;
  }
}

// ---- Texts.

function textTest(op: Condition['op'], values: readonly string[]): ((text: string) => boolean) | null {
  if (op === 'equals') {
    const set = new Set(values);
    return (text) => set.has(text);
  }
  if (op === 'prefix') return (text) => values.some((value) => text.startsWith(value));
  if (op === 'contains') return (text) => values.some((value) => text.includes(value));
  if (op === 'regex') {
    const patterns: RegExp[] = [];
    for (const value of values) {
      const pattern = pcreToRegExp(value);
      if (!pattern) return null;
      patterns.push(pattern);
    }
    return remembered((text) => patterns.some((pattern) => pattern.test(text)));
  }
  return null;
}

const notEvaluated = (reason: string): CompiledCondition => ({ kind: 'not_evaluated', reason });

/** One condition as the edge compiles it (values upper-cased for method and country, lower-cased for host). */
export function compileCondition(condition: Condition): CompiledCondition {
  const negate = condition.negate === true;
  let test: RequestTest;
  if (condition.field === 'ip') {
    const holds = condition.op === 'cidr' ? cidrTest(condition.values) : null;
    if (!holds) return notEvaluated('the address condition does not compile');
    test = (request) => holds(request.remote_addr);
  } else {
    let variable: TextField;
    if (condition.field === 'header') {
      const logged = LOGGED_HEADERS[(condition.header ?? '').toLowerCase()];
      if (!logged) return notEvaluated(`the access log does not keep the request header ${condition.header ?? ''}`);
      variable = logged;
    } else {
      variable = FIELD_VARIABLE[condition.field];
    }
    const values =
      condition.field === 'method' || condition.field === 'country'
        ? condition.values.map((value) => value.toUpperCase())
        : condition.field === 'host'
          ? condition.values.map((value) => value.toLowerCase())
          : condition.values;
    const holds = textTest(condition.op, values);
    if (!holds) {
      return notEvaluated(
        condition.op === 'regex'
          ? 'the regular expression uses PCRE syntax the preview does not run'
          : `op ${condition.op} does not apply to field ${condition.field}`,
      );
    }
    // A request nginx refused (uri null) never reaches the rules: the replay leaves it out.
    test = (request) => holds(request[variable] ?? '');
  }
  if (!negate) return { kind: 'test', test };
  return { kind: 'test', test: (request) => !test(request) };
}
