/**
 * What the edge's conditions read, rebuilt from an access-log line. The log keeps nginx's
 * `$request_uri` (raw, with the query); the `path` condition reads `$uri` and `query` reads `$args`,
 * which nginx derives as here: the query is what follows the first `?` (up to a `#`); the path is
 * percent-decoded, its slashes merged and its dot segments resolved (decoded `/` and `.` count as
 * written ones). Texts are byte strings (one char per byte, as the edge's Lua and PCRE see them).
 */

/** The nginx variables of a request that conditions read. */
export interface EdgeRequest {
  remote_addr: string;
  /** `$uri`: null when nginx refuses the request line (it answers 400 before any rule runs). */
  uri: string | null;
  args: string;
  request_method: string;
  http_user_agent: string;
  http_referer: string;
  host: string;
  rampart_country: string;
}

const ASCII = /^[\x20-\x7e]*$/;

/** The text as the bytes nginx had, one char per byte (the log's JSON carried UTF-8). */
export const byteString = (text: string): string =>
  ASCII.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');

const hexValue = (code: number): number => {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
};

/** `%XX` decoded; null for a bad escape or a NUL (nginx: 400). */
function percentDecoded(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  let out = '';
  for (let at = 0; at < raw.length; at++) {
    const char = raw[at];
    if (char !== '%') {
      out += char;
      continue;
    }
    const high = hexValue(raw.charCodeAt(at + 1));
    const low = hexValue(raw.charCodeAt(at + 2));
    if (high < 0 || low < 0) return null;
    const code = high * 16 + low;
    if (code === 0) return null;
    out += String.fromCharCode(code);
    at += 2;
  }
  return out;
}

/** Slashes merged, `.` and `..` segments resolved; null when `..` climbs above the root (nginx: 400). */
function resolvedPath(path: string): string | null {
  if (!path.includes('//') && !path.includes('/.')) return path;
  const parts = path.split('/');
  const kept: string[] = [];
  let trailing = false;
  for (let at = 1; at < parts.length; at++) {
    const part = parts[at] ?? '';
    const last = at === parts.length - 1;
    trailing = false;
    if (part === '' || part === '.') {
      trailing = last;
    } else if (part === '..') {
      if (kept.length === 0) return null;
      kept.pop();
      trailing = last;
    } else {
      kept.push(part);
    }
  }
  if (kept.length === 0) return '/';
  return `/${kept.join('/')}${trailing ? '/' : ''}`;
}

/** `$uri` and `$args` of a `$request_uri`. */
export function splitRequestUri(requestUri: string): { uri: string | null; args: string } {
  const raw = byteString(requestUri);
  const question = raw.indexOf('?');
  const hash = raw.indexOf('#');
  const pathEnd = question >= 0 && (hash < 0 || question < hash) ? question : hash >= 0 ? hash : raw.length;
  let args = '';
  if (pathEnd === question && question >= 0) {
    const argsEnd = raw.indexOf('#', question + 1);
    args = raw.slice(question + 1, argsEnd < 0 ? raw.length : argsEnd);
  }
  const path = raw.slice(0, pathEnd);
  if (!path.startsWith('/')) return { uri: null, args };
  const decoded = percentDecoded(path);
  return { uri: decoded === null ? null : resolvedPath(decoded), args };
}

/** An access-log line's fields, as the log stores keep them. */
export interface LogFields {
  client_ip: string;
  method: string;
  host: string;
  uri: string;
  user_agent: string;
  referer: string;
  country: string;
}

// Lines repeat their URLs: each distinct $request_uri is split once (the cache starts over when full).
const splits = new Map<string, { uri: string | null; args: string }>();
const MAX_SPLITS = 50_000;

function splitOnce(requestUri: string) {
  let split = splits.get(requestUri);
  if (!split) {
    if (splits.size >= MAX_SPLITS) splits.clear();
    split = splitRequestUri(requestUri);
    splits.set(requestUri, split);
  }
  return split;
}

/** A log line as the conditions read it: each value made when first read. */
class LoggedRequest implements EdgeRequest {
  readonly #line: LogFields;

  constructor(line: LogFields) {
    this.#line = line;
  }

  get remote_addr() {
    return this.#line.client_ip;
  }

  get uri() {
    return splitOnce(this.#line.uri).uri;
  }

  get args() {
    return splitOnce(this.#line.uri).args;
  }

  get request_method() {
    return this.#line.method;
  }

  get http_user_agent() {
    return byteString(this.#line.user_agent);
  }

  get http_referer() {
    return byteString(this.#line.referer);
  }

  get host() {
    return byteString(this.#line.host);
  }

  get rampart_country() {
    return this.#line.country;
  }
}

export const edgeRequest = (line: LogFields): EdgeRequest => new LoggedRequest(line);
