/**
 * The last line of defence between a value and nginx configuration: whatever the schemas let
 * through, nothing that could end a string, start a directive, interpolate a variable or open a
 * comment is ever written. The renderer calls these for every value it did not write itself.
 */
export class RenderRefusal extends Error {
  readonly field: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.name = 'RenderRefusal';
    this.field = field;
  }
}

// Anything but printable ASCII (CR, LF, NUL, tab, DEL, Unicode separators...), quotes, backslash,
// braces, semicolon, $, # and backtick. Every field that reaches nginx is ASCII by contract.
const FORBIDDEN = /[^\u0020-\u007e]|["'\\{};$#`]/;

/** Returns `value` when it is safe inside an nginx double-quoted string, otherwise throws. */
export function safeText(value: unknown, field: string, maxLength = 4096): string {
  if (typeof value !== 'string') throw new RenderRefusal(field, 'must be a string');
  if (value.length > maxLength) throw new RenderRefusal(field, `longer than ${maxLength} characters`);
  const bad = FORBIDDEN.exec(value);
  if (bad) throw new RenderRefusal(field, `forbidden character ${JSON.stringify(bad[0])}`);
  return value;
}

/** `value` as an nginx double-quoted string. */
export function quote(value: unknown, field: string, maxLength?: number): string {
  return `"${safeText(value, field, maxLength)}"`;
}

/** A non-negative safe integer rendered as digits; anything else is refused. */
export function integer(value: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RenderRefusal(field, `must be an integer from ${min} to ${max}`);
  }
  return String(value);
}

/**
 * A path prefix as a regex literal: only the characters a path prefix may hold are accepted, and the
 * metacharacters among them (`.`, `*`, `+`) become one-character classes, so no backslash is needed.
 */
export function regexLiteral(value: unknown, field: string): string {
  const text = safeText(value, field, 512);
  if (!/^[A-Za-z0-9._~!*+,=:@%/-]*$/.test(text)) throw new RenderRefusal(field, 'not a path prefix');
  return text.replace(/[.*+]/g, (ch) => `[${ch}]`);
}

/** A MIME type as one bare nginx word: lowercase letters, digits and . + - around one /. */
export function mimeType(value: unknown, field: string): string {
  const text = safeText(value, field, 128);
  if (!/^[a-z0-9][a-z0-9.+-]{0,40}\/[a-z0-9][a-z0-9.+-]{0,80}$/.test(text))
    throw new RenderRefusal(field, 'not a MIME type');
  return text;
}
