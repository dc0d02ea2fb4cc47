import type { EdgeRuleGroup } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/snapshots.ts';
import { routeProtection } from './protection.ts';

const protection = (rule_group_id: number | null, attack_rule_group_id: number | null = null) => ({
  rule_group_id,
  attack_rule_group_id,
  under_attack: false,
  whitelist: [],
  waf: { mode: 'off' as const, paranoia: 1, exclusions: [] },
});

const group = (id: number, filter: EdgeRuleGroup['rules'][number]['filter'], value = '/'): EdgeRuleGroup => ({
  id,
  rules: [
    {
      match_id: 1,
      filter_id: 2,
      conditions: [{ field: 'path', op: value.startsWith('(') ? 'regex' : 'prefix', values: [value], negate: false }],
      filter,
      action: 'block',
      ban_seconds: 60,
    },
  ],
});

describe('routeProtection', () => {
  it('keeps the groups sites use (captcha ones too), and reports sites whose group is missing or invalid', () => {
    const outcome = routeProtection(
      {
        rule_groups: [
          group(1, { name: 'r', type: 'rate', requests: 5, seconds: 1 }),
          group(2, { name: 'unused', type: 'js', valid_seconds: 600 }),
          group(3, { name: 'c', type: 'captcha', valid_seconds: 600 }),
          group(4, { name: 'bad regex', type: 'js', valid_seconds: 600 }, '(unclosed'),
          { id: 5, rules: [{ match_id: 1 }] },
        ],
        acls: [
          {
            site_id: 1,
            entries: [
              { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['10.0.0.0/8'], negate: false } },
            ],
          },
          {
            site_id: 2,
            entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['x";'], negate: false } }],
          },
        ],
        bans: [
          { site_id: 0, cidr: '203.0.113.0/24', expires_at: 2_000_000_000 },
          { site_id: 1, cidr: 'not an address', expires_at: 2_000_000_000 },
        ],
        unbans: [
          { site_id: 1, ip: '203.0.113.9', until: 2_000_000_000 },
          { site_id: 1, ip: '1.2.3.4; drop', until: 1 },
        ],
      },
      [
        makeSite({ id: 1, protection: protection(1) }),
        makeSite({ id: 2, protection: protection(9) }),
        makeSite({ id: 3, protection: protection(3) }),
        makeSite({ id: 4, protection: protection(1, 4) }),
        makeSite({ id: 5, protection: protection(5) }),
        makeSite({ id: 6 }),
      ],
    );
    expect(outcome.protection.rule_groups.map((g) => g.id)).toEqual([1, 3, 4]);
    expect(outcome.protection.acls.map((a) => a.site_id)).toEqual([1]);
    expect(outcome.protection.bans).toEqual([{ site_id: 0, cidr: '203.0.113.0/24', expires_at: 2_000_000_000 }]);
    expect(outcome.protection.unbans).toEqual([{ site_id: 1, ip: '203.0.113.9', until: 2_000_000_000 }]);
    expect(Object.fromEntries(outcome.problems)).toEqual({
      2: 'rule group 9 is missing on this node',
      5: expect.stringContaining('rule group 5 is invalid'),
    });
  });

  it('reads a snapshot without protection as nothing to enforce', () => {
    expect(routeProtection(undefined, [makeSite()])).toEqual({
      protection: { rule_groups: [], acls: [], bans: [], unbans: [] },
      problems: new Map(),
    });
  });
});
