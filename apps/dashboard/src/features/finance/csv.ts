/**
 * One CSV cell: quoted when it holds a comma, quote or line break, and prefixed with ' when it
 * starts with = + - @ (or a tab or carriage return) so that a spreadsheet shows it instead of running it.
 */
export const csvCell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** Rows as CSV text with CRLF line ends and a BOM, so that spreadsheets read UTF-8. */
export const csvText = (rows: readonly (readonly (string | number | null | undefined)[])[]): string =>
  `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
