import { describe, expect, it } from 'vitest';
import { compareRecords, type NamedRecord } from './drift-compare.ts';

const NAME = 'lg1.cdn.example.cn';
const record = (fields: Partial<NamedRecord>): NamedRecord => ({
  name: NAME,
  type: 'A',
  value: '192.0.2.1',
  line: null,
  ttl: 600,
  weight: null,
  ...fields,
});

describe('comparing what publishing writes with what the provider holds', () => {
  it('tells records apart by line and IP, and finds none when both agree (IPv6 in any case, CNAMEs with a final dot)', () => {
    const wanted = [
      record({}),
      record({ line: '电信', value: '192.0.2.2' }),
      record({ type: 'AAAA', value: '2001:db8::1' }),
      record({ name: 's1.cdn.example.cn', type: 'CNAME', value: NAME }),
    ];
    const held = [
      record({ line: '电信', value: '192.0.2.2' }),
      record({}),
      record({ type: 'AAAA', value: '2001:DB8::1' }),
      record({ name: 's1.cdn.example.cn', type: 'CNAME', value: `${NAME}.` }),
    ];
    expect(compareRecords(wanted, held, true)).toEqual([]);
  });

  it('reports a record on another line as missing on one and extra on the other, and a duplicate as extra', () => {
    const differences = compareRecords(
      [record({ line: '电信' })],
      [record({}), record({ line: '电信' }), record({ line: '电信' })],
      false,
    );
    expect(differences.map((entry) => `${entry.kind} ${entry.line || 'default'}`)).toEqual([
      'extra default',
      'extra 电信',
    ]);
    expect(compareRecords([record({ line: '电信' })], [record({})], false).map((entry) => entry.kind)).toEqual([
      'extra',
      'missing',
    ]);
  });

  it('compares weights only where publishing sets them and the provider keeps them', () => {
    const held = [record({ weight: 1 }), record({ value: '192.0.2.2', weight: 70 })];
    const wanted = [record({ weight: 30 }), record({ value: '192.0.2.2', weight: 70 })];
    expect(compareRecords(wanted, held, true)).toEqual([
      {
        kind: 'different',
        name: NAME,
        type: 'A',
        line: '',
        expected: { value: '192.0.2.1', ttl: 600, weight: 30 },
        actual: { value: '192.0.2.1', ttl: 600, weight: 1 },
        fields: ['weight'],
      },
    ]);
    expect(compareRecords(wanted, held, false)).toEqual([]);
    expect(compareRecords([record({})], [record({ weight: 5 })], true)).toEqual([]);
  });

  it('names every field that differs on a CNAME', () => {
    const [difference] = compareRecords(
      [record({ type: 'CNAME', value: NAME, ttl: 300 })],
      [record({ type: 'CNAME', value: 'elsewhere.example.net.', ttl: 600 })],
      false,
    );
    expect(difference).toMatchObject({ kind: 'different', fields: ['value', 'ttl'] });
  });
});
