import { AclEntries } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { aclEntry, aclRow, allowIpEntry, NEW_ACL_ROW, withAllowFirst } from './acl.ts';

const deny = (cidr: string) => ({
  action: 'deny' as const,
  condition: { field: 'ip' as const, op: 'cidr' as const, values: [cidr], negate: false },
});

describe('ACL entries', () => {
  it('allow an IP with an allow entry at the top, before the deny that blocked it', () => {
    const entries = [deny('203.0.113.0/24'), deny('198.51.100.0/24')];
    expect(withAllowFirst(entries, '203.0.113.9')).toEqual([allowIpEntry('203.0.113.9'), ...entries]);
    expect(allowIpEntry('2001:db8::1')).toEqual({
      action: 'allow',
      condition: { field: 'ip', op: 'cidr', values: ['2001:db8::1'], negate: false },
    });
  });

  it('start an ACL for a site that has none, and never list the same allow entry twice', () => {
    expect(withAllowFirst([], '192.0.2.1')).toEqual([allowIpEntry('192.0.2.1')]);
    const again = withAllowFirst([deny('10.0.0.0/8'), allowIpEntry('192.0.2.1')], '192.0.2.1');
    expect(again).toEqual([allowIpEntry('192.0.2.1'), deny('10.0.0.0/8')]);
    expect(Compile(AclEntries).Check(again)).toBe(true);
  });

  it('edit entries as rows and back', () => {
    const entry = deny('10.0.0.0/8');
    expect(aclEntry(aclRow(entry))).toEqual(entry);
    expect(NEW_ACL_ROW.condition).toMatchObject({ field: 'ip', op: 'cidr' });
  });
});
