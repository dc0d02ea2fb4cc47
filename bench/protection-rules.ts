// The realistic protection of the edge benches: an ACL of 1,000 CIDR ranges the bench client is not
// in, and a group of 5 CC rules that benign requests pass (the first one counts every request).
import type { EdgeProtection, EdgeRuleGroup } from '@rampart/contracts';
import { makeProtection } from '../apps/agent/src/testing/snapshots.ts';

type EdgeAcl = EdgeProtection['acls'][number];

/** A site's protection settings: the defaults with `overrides`. */
export const protection = makeProtection;

// 1,000 ranges the bench client is not in, of mixed prefix lengths, as blocklists look.
const cidrs = Array.from({ length: 1000 }, (_, i) => {
  const lengths = [32, 24, 16, 28];
  const bits = lengths[i % lengths.length]!;
  return `${10 + (i % 200)}.${(i * 7) % 256}.${(i * 13) % 256}.${bits === 32 ? (i * 3) % 256 : 0}/${bits}`;
});

/** A deny entry per range, for `siteId`. */
export const blocklistAcl = (siteId: number): EdgeAcl => ({
  site_id: siteId,
  entries: cidrs.map((cidr) => ({
    action: 'deny' as const,
    condition: { field: 'ip' as const, op: 'cidr' as const, values: [cidr], negate: false },
  })),
});

export const line = (
  id: number,
  conditions: EdgeRuleGroup['rules'][number]['conditions'],
  filter: EdgeRuleGroup['rules'][number]['filter'],
  action: 'block' | 'ban' | 'log' = 'block',
) => ({ match_id: id, filter_id: id, conditions, filter, action, ban_seconds: 600 });

/** Five CC rules as a site would have them; benign requests pass every one. */
export const realisticRules = (id: number): EdgeRuleGroup => ({
  id,
  rules: [
    // Every request is counted (far below its limit): the rate path runs on each request. The limit
    // is a million a second from one address, so no machine's wrk reaches it however many rounds it
    // runs (a million a minute was crossed by five 5 s rounds at 70,000 requests a second).
    line(1, [{ field: 'path', op: 'prefix', values: ['/'], negate: false }], {
      name: 'per ip',
      type: 'rate',
      requests: 1_000_000,
      seconds: 1,
      per: 'ip',
    }),
    line(
      2,
      [{ field: 'path', op: 'prefix', values: ['/login', '/wp-login.php', '/xmlrpc.php'], negate: false }],
      {
        name: 'login',
        type: 'rate',
        requests: 20,
        seconds: 60,
        per: 'ip_url',
      },
      'ban',
    ),
    line(3, [{ field: 'user_agent', op: 'regex', values: ['(?i)(sqlmap|nikto|masscan|zgrab)'], negate: false }], {
      name: 'scanners',
      type: 'js',
      valid_seconds: 3600,
    }),
    line(
      4,
      [
        { field: 'method', op: 'equals', values: ['POST', 'PUT', 'DELETE'], negate: false },
        { field: 'referer', op: 'contains', values: ['spam.example'], negate: false },
      ],
      { name: 'spam posts', type: 'redirect', valid_seconds: 3600 },
    ),
    line(
      5,
      [{ field: 'query', op: 'contains', values: ['union select', '<script'], negate: false }],
      {
        name: 'probes',
        type: 'rate',
        requests: 1,
        seconds: 60,
        per: 'ip',
      },
      'ban',
    ),
  ],
});
