import { describe, expect, it } from 'vitest';
import { type RecordDraft, recordProblem, recordsBody } from './recordDraft.ts';

const row = (fields: Partial<RecordDraft>): RecordDraft => ({
  key: 1,
  line_id: 1,
  ip: '192.0.2.1',
  weight: 1,
  backup: false,
  ...fields,
});

describe('the resolution rows', () => {
  it('need an IP and a whole weight from 1 to 100 on every row', () => {
    expect(recordProblem([row({ ip: '' })])).toEqual({ key: 'lineGroups.records.ipRequired' });
    for (const weight of [0, 101, 1.5, null]) {
      expect(recordProblem([row({ weight })])).toEqual({ key: 'lineGroups.records.weightRule' });
    }
    expect(recordProblem([row({ weight: 100 })])).toBeNull();
  });

  it('refuse an IP twice on one line, but take it as primary and backup, or on two lines', () => {
    expect(recordProblem([row({}), row({ key: 2 })])).toEqual({
      key: 'lineGroups.records.duplicate',
      values: { ip: '192.0.2.1' },
    });
    expect(recordProblem([row({}), row({ key: 2, backup: true }), row({ key: 3, line_id: 2 })])).toBeNull();
  });

  it('become the body PUT /v1/node-groups/{id} takes', () => {
    expect(recordsBody([row({ weight: 30, backup: true })])).toEqual([
      { line_id: 1, ip: '192.0.2.1', weight: 30, backup: true },
    ]);
  });
});
