import type { EdgeSnapshot } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { clockOffsetSeconds, inNodeTime } from './clock.ts';

const MASTER_NOW = Date.parse('2026-11-28T04:00:00Z');
const header = new Date(MASTER_NOW).toUTCString();

describe('the node clock against the master', () => {
  it('reads a node 10 minutes ahead or behind from the Date header, and calls a few seconds right', () => {
    expect(clockOffsetSeconds(header, MASTER_NOW + 600_000 + 500, 20)).toBe(600);
    expect(clockOffsetSeconds(header, MASTER_NOW - 600_000 + 500, 20)).toBe(-600);
    expect(clockOffsetSeconds(header, MASTER_NOW + 2_000, 20)).toBe(0);
    expect(clockOffsetSeconds(null, MASTER_NOW, 20)).toBeNull();
    expect(clockOffsetSeconds('not a date', MASTER_NOW, 20)).toBeNull();
  });

  it('moves the end of bans and unbans to the node clock, and leaves the rest as it is', () => {
    const snapshot = {
      version: 7,
      sites: [],
      protection: {
        rule_groups: [],
        acls: [],
        bans: [{ site_id: 0, cidr: '192.0.2.1/32', expires_at: 1_000 }],
        unbans: [{ site_id: 3, ip: '192.0.2.2', until: 2_000 }],
      },
    } as unknown as EdgeSnapshot;
    const ahead = inNodeTime(snapshot, 600);
    expect(ahead.protection?.bans).toEqual([{ site_id: 0, cidr: '192.0.2.1/32', expires_at: 1_600 }]);
    expect(ahead.protection?.unbans).toEqual([{ site_id: 3, ip: '192.0.2.2', until: 2_600 }]);
    expect(ahead.version).toBe(7);
    expect(snapshot.protection?.bans[0]?.expires_at).toBe(1_000);
    expect(inNodeTime(snapshot, 0)).toBe(snapshot);
  });
});
