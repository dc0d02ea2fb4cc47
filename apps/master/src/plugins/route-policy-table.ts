import { readFileSync, writeFileSync } from 'node:fs';

/** What the policy hook writes into each operation of the OpenAPI document. */
interface PolicyExtension {
  text: string;
}

export interface PolicyDocument {
  paths: Record<string, Record<string, { 'x-policy'?: PolicyExtension }>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The README's route policy table, printed from the OpenAPI document: one row per path and policy,
 * the methods that share it together. Sorted by path, so a new route shows as one new row.
 */
export function policyTable(document: PolicyDocument): string {
  const rows: string[] = [];
  for (const path of Object.keys(document.paths).sort()) {
    const byPolicy = new Map<string, string[]>();
    for (const method of METHODS) {
      const text = document.paths[path]?.[method]?.['x-policy']?.text;
      if (text === undefined) continue;
      byPolicy.set(text, [...(byPolicy.get(text) ?? []), method.toUpperCase()]);
    }
    for (const [text, methods] of byPolicy) rows.push(`| \`${path}\` | ${methods.join(', ')} | ${text} |`);
  }
  return ['| path | methods | who may call |', '|---|---|---|', ...rows].join('\n');
}

export const TABLE_START = '<!-- route-policies:start (npm run policies writes this table) -->';
export const TABLE_END = '<!-- route-policies:end -->';

/** The README with its table section replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${TABLE_START} … ${TABLE_END} section`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The table section as the README has it now. */
export function tableIn(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return '';
  return readme.slice(start + TABLE_START.length, end).trim();
}

export function writeReadmeTable(readmePath: string, document: PolicyDocument) {
  writeFileSync(readmePath, withTable(readFileSync(readmePath, 'utf8'), policyTable(document)));
}
