import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './op-log-csv.ts';

describe('operation log CSV', () => {
  it('quotes fields with quotes, commas or line breaks, and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
  });

  it('writes one line per entry, a removed user by id', () => {
    const line = csvLine({
      id: 1,
      user_id: 7,
      account: null,
      impersonator_id: 1,
      impersonator_account: 'admin',
      auth_method: 'session',
      api_key_id: null,
      method: 'PUT',
      route: '/v1/sites/:id',
      action: 'sites.update',
      target_ids: ['3', '4'],
      target_names: ['3', '4'],
      changes: { name: 'a' },
      ip: '203.0.113.5',
      user_agent: 'ua',
      result: 'ok',
      created_at: '2026-11-25T10:00:00.000Z',
    });
    expect(line).toBe(
      '2026-11-25T10:00:00.000Z,#7,admin,session,,sites.update,PUT,/v1/sites/:id,3 4,"{""name"":""a""}",203.0.113.5,ua,ok\r\n',
    );
  });
});
