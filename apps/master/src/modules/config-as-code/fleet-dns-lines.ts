import type { FleetDnsLine, PlanChange } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { listLines } from '../line-groups/lines.repository.ts';
import { deleteLineIn, saveLineIn } from '../line-groups/lines.service.ts';
import { refusalAt } from './document.ts';
import { fieldChanges } from './plan.ts';
import type { Held } from './state.ts';

/** A line's name in a plan: `<provider>/<code>`, or its code alone for a line every provider has. */
export const dnsLineName = (line: Pick<FleetDnsLine, 'provider' | 'code'>) =>
  line.provider === '' ? line.code : `${line.provider}/${line.code}`;

/** The DNS line catalogue by name: every provider's lines first, then each provider's, by code. */
export async function loadDnsLines(db: Kysely<Database>): Promise<Map<string, Held<FleetDnsLine>>> {
  const lines = (await listLines(db)).map((row) => ({
    id: row.id,
    object: {
      provider: row.provider as FleetDnsLine['provider'],
      code: row.code,
      name_zh: row.name_zh,
      name_en: row.name_en,
    },
  }));
  // Every provider's lines first, then each provider's, by code.
  const key = ({ object }: { object: FleetDnsLine }) => `${object.provider}\u0000${object.code}`;
  lines.sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return new Map(lines.map((held) => [dnsLineName(held.object), held]));
}

/** The dns_lines section's changes: by name, a line the section leaves out deleted. */
export function dnsLineChanges(items: readonly FleetDnsLine[], current: Map<string, Held<FleetDnsLine>>) {
  const changes: PlanChange[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const name = dnsLineName(item);
    if (seen.has(name)) throw invalidParam(`dns_lines[${index}].code`, `line ${name} is listed twice in dns_lines`);
    seen.add(name);
    const held = current.get(name);
    if (!held) {
      changes.push({ action: 'create', kind: 'dns_line', name });
      continue;
    }
    const fields = fieldChanges(held.object, item);
    if (fields.length > 0) changes.push({ action: 'update', kind: 'dns_line', name, fields });
  }
  for (const name of current.keys()) if (!seen.has(name)) changes.push({ action: 'delete', kind: 'dns_line', name });
  return changes;
}

/**
 * Creates and changes the section's lines in `trx`, through the catalogue's service: before the line
 * groups, which may name a line the document adds.
 */
export async function saveDnsLines(
  trx: Transaction<Database>,
  items: readonly FleetDnsLine[],
  current: Map<string, Held<FleetDnsLine>>,
  changes: readonly PlanChange[],
) {
  for (const [index, item] of items.entries()) {
    const name = dnsLineName(item);
    const action = changes.find((change) => change.kind === 'dns_line' && change.name === name)?.action;
    if (action !== 'create' && action !== 'update') continue;
    try {
      await saveLineIn(trx, action === 'create' ? null : (current.get(name)?.id ?? 0), item);
    } catch (error) {
      throw refusalAt(error, `dns_lines[${index}]`);
    }
  }
}

/** Deletes the lines the section left out: after the line groups, which may have stopped naming them. */
export async function deleteDnsLines(
  trx: Transaction<Database>,
  current: Map<string, Held<FleetDnsLine>>,
  changes: readonly PlanChange[],
) {
  for (const change of changes) {
    if (change.kind !== 'dns_line' || change.action !== 'delete') continue;
    try {
      await deleteLineIn(trx, current.get(change.name)?.id ?? 0);
    } catch (error) {
      throw refusalAt(error, `dns_lines.${change.name}`);
    }
  }
}
