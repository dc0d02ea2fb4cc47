import type { DnsDifference, DnsRecordState } from '@rampart/contracts';
import { bare, type ProviderRecord } from '../dnsapis/dns-provider.ts';

/** A record at a name: what publishing writes or what the provider holds. */
export interface NamedRecord extends ProviderRecord {
  name: string;
}

/** Address records are told apart by their IP; a name has one CNAME, whose target is a field. */
const keyOf = (record: NamedRecord) =>
  [bare(record.name), record.type, record.line ?? '', record.type === 'CNAME' ? '' : normalValue(record)].join('|');

const normalValue = (record: Pick<NamedRecord, 'type' | 'value'>) =>
  record.type === 'CNAME' ? bare(record.value) : record.value.toLowerCase();

const stateOf = (record: NamedRecord): DnsRecordState => ({
  value: record.type === 'CNAME' ? bare(record.value) : record.value,
  ttl: record.ttl,
  weight: record.weight,
});

/** By name, type, line, then value: the order a person scans a zone in. */
const order = (a: DnsDifference, b: DnsDifference) => {
  const key = (entry: DnsDifference) => [
    entry.name,
    entry.type,
    entry.line,
    entry.expected?.value ?? entry.actual?.value ?? '',
  ];
  const [left, right] = [key(a), key(b)];
  for (const [index, part] of left.entries()) {
    const other = right[index] ?? '';
    if (part !== other) return part < other ? -1 : 1;
  }
  return 0;
};

/**
 * The records missing at the provider, those it has beyond them, and those both have unalike (value,
 * TTL, or weight where `wanted` names one and the provider keeps weights).
 */
export function compareRecords(
  wanted: readonly NamedRecord[],
  actual: readonly NamedRecord[],
  providerKeepsWeights: boolean,
): DnsDifference[] {
  const held = new Map<string, NamedRecord[]>();
  for (const record of actual) held.set(keyOf(record), [...(held.get(keyOf(record)) ?? []), record]);
  const differences: DnsDifference[] = [];
  const place = (record: NamedRecord) => ({ name: bare(record.name), type: record.type, line: record.line ?? '' });
  for (const record of wanted) {
    const [match, ...others] = held.get(keyOf(record)) ?? [];
    held.delete(keyOf(record));
    // A second copy of the same record is one more than publishing writes.
    for (const other of others)
      differences.push({ kind: 'extra', ...place(other), expected: null, actual: stateOf(other), fields: [] });
    if (!match) {
      differences.push({ kind: 'missing', ...place(record), expected: stateOf(record), actual: null, fields: [] });
      continue;
    }
    const fields: DnsDifference['fields'] = [];
    if (normalValue(match) !== normalValue(record)) fields.push('value');
    if (match.ttl !== record.ttl) fields.push('ttl');
    if (providerKeepsWeights && record.weight !== null && match.weight !== record.weight) fields.push('weight');
    if (fields.length > 0)
      differences.push({
        kind: 'different',
        ...place(record),
        expected: stateOf(record),
        actual: stateOf(match),
        fields,
      });
  }
  for (const records of held.values()) {
    for (const record of records)
      differences.push({ kind: 'extra', ...place(record), expected: null, actual: stateOf(record), fields: [] });
  }
  return differences.sort(order);
}
