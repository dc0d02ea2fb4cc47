import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv.ts';

describe('csvCell', () => {
  it('prefixes cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-12.00')).toBe("'-12.00");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
  });

  it('quotes commas, quotes and line breaks, after the prefix', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
  });

  it('leaves plain text and numbers as they are, and empty for null', () => {
    expect(csvCell('recharge')).toBe('recharge');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('csvText', () => {
  it('joins rows with CRLF after a BOM', () => {
    expect(
      csvText([
        ['id', 'amount'],
        [1, '-1.00'],
      ]),
    ).toBe("\uFEFFid,amount\r\n1,'-1.00\r\n");
  });
});
