import { HOSTILE_VALUES } from '@rampart/contracts/testing';
import { describe, expect, it } from 'vitest';
import { literal, quoteString } from './literal.ts';

describe('ClickHouse literals', () => {
  it('writes numbers, booleans and null as themselves', () => {
    expect(literal(42)).toBe('42');
    expect(literal(-1.5)).toBe('-1.5');
    expect(literal(12n)).toBe('12');
    expect(literal(true)).toBe('1');
    expect(literal(null)).toBe('NULL');
  });

  it('refuses what has no literal', () => {
    expect(() => literal(Number.NaN)).toThrow(/NaN/);
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow(/Infinity/);
    expect(() => literal({})).toThrow(/object/);
    expect(() => literal(new Date())).toThrow(/object/);
  });

  it('escapes every backslash and quote, so no string ends its literal early', () => {
    expect(quoteString("it's")).toBe("'it\\'s'");
    expect(quoteString('a\\')).toBe("'a\\\\'");
    expect(quoteString("\\'; drop table x; --")).toBe("'\\\\\\'; drop table x; --'");
    expect(quoteString('line\nbreak\r\t\0')).toBe("'line\\nbreak\\r\\t\\0'");
    for (const value of HOSTILE_VALUES) {
      const quoted = quoteString(value);
      // Inside the quotes, every quote is preceded by an odd number of backslashes.
      const inner = quoted.slice(1, -1);
      for (const match of inner.matchAll(/(\\*)'/g)) expect((match[1] ?? '').length % 2).toBe(1);
    }
  });
});
