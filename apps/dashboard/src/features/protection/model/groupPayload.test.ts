import { CreateCcRuleGroupBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { checkLineBanSeconds, checkLineCount, checkPicked, groupBody, groupDraft, MAX_LINES } from './groupPayload.ts';

const groupShape = Compile(CreateCcRuleGroupBody);

describe('rule group payloads', () => {
  it('send the lines in the editor order with a ban time on each', () => {
    const body = groupBody({
      name: ' shop ',
      rules: [
        { match_id: 3, filter_id: 1, action: 'ban', ban_seconds: 3600 },
        { match_id: 2, filter_id: 5, action: 'block', ban_seconds: null },
      ],
    });
    expect(body).toEqual({
      name: 'shop',
      rules: [
        { match_id: 3, filter_id: 1, action: 'ban', ban_seconds: 3600 },
        { match_id: 2, filter_id: 5, action: 'block', ban_seconds: 600 },
      ],
    });
    expect(groupShape.Check(body)).toBe(true);
    expect(groupShape.Check(groupBody({ name: 'sys', rules: [], system: true }))).toBe(true);
  });

  it('need a match and a filter on every line, a ban time the contracts allow and at most 100 lines', () => {
    expect(checkPicked(undefined)).toEqual({ key: 'pick' });
    expect(checkPicked(0)).toEqual({ key: 'pick' });
    expect(checkPicked(7)).toBeUndefined();
    expect(checkLineBanSeconds(0)?.key).toBe('integer');
    expect(checkLineBanSeconds(2_592_001)).toEqual({ key: 'integer', values: { min: 1, max: 2_592_000 } });
    expect(MAX_LINES).toBe(100);
    expect(checkLineCount(101)).toEqual({ key: 'lines', values: { max: 100 } });
    expect(checkLineCount(0)).toBeUndefined();
  });

  it('edit a stored group without changing it', () => {
    const rules = [{ match_id: 1, filter_id: 2, action: 'log' as const, ban_seconds: 60 }];
    const row = {
      id: 9,
      user_id: 0,
      name: 'default',
      is_default: true,
      rules,
      created_at: '2026-11-22T00:00:00Z',
      updated_at: '2026-11-22T00:00:00Z',
    };
    expect(groupBody(groupDraft(row))).toEqual({ name: 'default', rules });
  });
});
