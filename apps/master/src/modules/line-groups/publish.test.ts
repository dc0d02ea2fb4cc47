import { describe, expect, it } from 'vitest';
import { planLines } from './publish.ts';

const DEFAULT = 1;
const TELECOM = 2;
const record = (group_id: number, line_id: number, ip: string, backup = 0, weight = 1) => ({
  group_id,
  line_id,
  ip,
  weight,
  backup,
});
const main = { id: 10, host: 'lg1', cname_domain_id: 1, backup_group_id: 20 };
const records = [
  record(10, DEFAULT, '192.0.2.1', 0, 30),
  record(10, DEFAULT, '192.0.2.2', 0, 70),
  record(10, DEFAULT, '192.0.2.9', 1),
  record(10, TELECOM, '198.51.100.1'),
  record(20, DEFAULT, '203.0.113.1'),
  record(20, DEFAULT, '203.0.113.2', 1),
];
const serving = new Set(['192.0.2.1', '192.0.2.2', '192.0.2.9', '198.51.100.1', '203.0.113.1', '203.0.113.2']);

describe('the records each line answers with', () => {
  it('are the chosen IPs that are up, with their weights, per line', () => {
    expect(planLines(main, records, DEFAULT, serving, new Set(['192.0.2.2']))).toEqual([
      { line_id: DEFAULT, records: [{ ip: '192.0.2.1', weight: 30 }], source: 'primary' },
      { line_id: TELECOM, records: [{ ip: '198.51.100.1', weight: 1 }], source: 'primary' },
    ]);
  });

  it('take the line’s backup IPs when no primary is up, then the backup group’s (its default line where it has not the line)', () => {
    const down = new Set(['192.0.2.1', '192.0.2.2', '198.51.100.1']);
    expect(planLines(main, records, DEFAULT, serving, down)).toEqual([
      { line_id: DEFAULT, records: [{ ip: '192.0.2.9', weight: 1 }], source: 'backup' },
      { line_id: TELECOM, records: [{ ip: '203.0.113.1', weight: 1 }], source: 'backup_group' },
    ]);
  });

  it('leave out IPs of nodes that are disabled or in maintenance, and empty a line with nothing left', () => {
    const alone = { ...main, backup_group_id: null };
    expect(planLines(alone, records, DEFAULT, new Set(['203.0.113.1']), new Set())).toEqual([
      { line_id: DEFAULT, records: [], source: 'removed' },
      { line_id: TELECOM, records: [], source: 'removed' },
    ]);
  });
});
