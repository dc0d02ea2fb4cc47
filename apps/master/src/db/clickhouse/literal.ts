/**
 * ClickHouse literals. The server this runs against (18.16 in Debian) has no query parameters, so
 * every value a query carries is written into its text here, and only here: numbers must be
 * finite, strings are quoted with every backslash and quote escaped, and any other type is refused.
 */

const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\0': '\\0',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

export function quoteString(text: string): string {
  return `'${text.replace(/[\\'\0\n\r\t]/g, (char) => ESCAPES[char] ?? char)}'`;
}

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoteString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`a ClickHouse query cannot carry the number ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? '1' : '0';
  throw new Error(`a ClickHouse query cannot carry a value of type ${typeof value}`);
}
