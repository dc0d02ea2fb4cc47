import type { AclEntry } from '@rampart/contracts';
import { type ConditionRow, conditionRow, NEW_CONDITION, toCondition } from './conditions.ts';

export type AclAction = AclEntry['action'];

/** An entry of the ACL editor. */
export interface AclRow {
  action: AclAction;
  condition: ConditionRow;
}

export const NEW_ACL_ROW: AclRow = { action: 'deny', condition: { ...NEW_CONDITION, field: 'ip', op: 'cidr' } };

export const aclRow = (entry: AclEntry): AclRow => ({ action: entry.action, condition: conditionRow(entry.condition) });

export const aclEntry = (row: AclRow): AclEntry => ({ action: row.action, condition: toCondition(row.condition) });

/** The entry "allow this IP" adds: the address itself as a CIDR condition. */
export const allowIpEntry = (ip: string): AclEntry => ({
  action: 'allow',
  condition: { field: 'ip', op: 'cidr', values: [ip], negate: false },
});

const sameEntry = (a: AclEntry, b: AclEntry) => JSON.stringify(a) === JSON.stringify(b);

/** The ACL with an allow entry for `ip` first (the first entry that holds decides); no duplicate is left. */
export const withAllowFirst = (entries: readonly AclEntry[], ip: string): AclEntry[] => {
  const allow = allowIpEntry(ip);
  return [allow, ...entries.filter((entry) => !sameEntry(entry, allow))];
};
