import { CreateCcFilterBody, RulePreviewBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import type { FilterRow } from '../api.ts';
import { aclEntry } from '../model/acl.ts';
import { groupBody } from '../model/groupPayload.ts';
import { matchBody } from '../model/matchPayload.ts';
import {
  aclPreviewRule,
  causeOf,
  errorTarget,
  groupPreviewRule,
  matchPreviewRule,
  previewBody,
  rulePart,
} from './previewRule.ts';

const bodyShape = Compile(RulePreviewBody);

const rateFilter: FilterRow = {
  id: 7,
  user_id: 3,
  name: 'slow down',
  type: 'rate',
  requests: 30,
  seconds: 10,
  per: 'ip_url',
  // Settings of another type stay on a row whose type changed; Save would not send them.
  valid_seconds: 900,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
} as FilterRow;

const headerCondition = {
  field: 'header',
  op: 'equals',
  valuesText: 'yes',
  header: ' X-Token ',
  negate: false,
} as const;

describe('rule preview bodies', () => {
  it('send the ACL entries exactly as the section saves them', () => {
    const rows = [
      {
        action: 'allow',
        condition: { field: 'ip', op: 'cidr', valuesText: '203.0.113.7\n\n 198.51.100.0/24 ', negate: false },
      },
      { action: 'deny', condition: { field: 'country', op: 'equals', valuesText: 'cn', negate: true } },
    ] as const;
    const body = previewBody(12, 6, aclPreviewRule(rows));
    expect(body).toEqual({
      site_id: 12,
      hours: 6,
      rule: {
        type: 'acl',
        entries: [
          {
            action: 'allow',
            condition: { field: 'ip', op: 'cidr', values: ['203.0.113.7', '198.51.100.0/24'], negate: false },
          },
          { action: 'deny', condition: { field: 'country', op: 'equals', values: ['CN'], negate: true } },
        ],
      },
    });
    expect(body.rule.type === 'acl' && body.rule.entries).toEqual(rows.map(aclEntry));
    expect(bodyShape.Check(body)).toBe(true);
  });

  it('send a match’s conditions with only the settings its filter’s type uses, and the chosen action', () => {
    const draft = {
      name: '',
      conditions: [{ field: 'path', op: 'prefix', valuesText: '/login', negate: false }, headerCondition],
    } as const;
    const body = previewBody(
      12,
      24,
      matchPreviewRule({ ...draft, conditions: [...draft.conditions] }, rateFilter, 'ban'),
    );
    expect(body.rule).toEqual({
      type: 'cc_match',
      match: { conditions: matchBody({ ...draft, conditions: [...draft.conditions] }).conditions },
      filter: { type: 'rate', requests: 30, seconds: 10, per: 'ip_url' },
      action: 'ban',
    });
    expect(body.rule.type === 'cc_match' && body.rule.match.conditions[1]?.header).toBe('X-Token');
    expect(bodyShape.Check(body)).toBe(true);
    expect(
      Compile(CreateCcFilterBody).Check({ name: 'x', ...(body.rule.type === 'cc_match' && body.rule.filter) }),
    ).toBe(true);
  });

  it('send a challenge filter with its cookie time only', () => {
    const js = { ...rateFilter, type: 'js', valid_seconds: 600 } as FilterRow;
    const rule = matchPreviewRule({ name: '', conditions: [headerCondition] }, js, 'block');
    expect(rule.type === 'cc_match' && rule.filter).toEqual({ type: 'js', valid_seconds: 600 });
  });

  it('send a rule group’s lines in order, as the drawer saves them', () => {
    const draft = {
      name: 'shop',
      rules: [
        { match_id: 3, filter_id: 1, action: 'ban', ban_seconds: 3600 },
        { match_id: 2, filter_id: 5, action: 'log', ban_seconds: null },
      ],
    } as const;
    const rule = groupPreviewRule({ ...draft, rules: draft.rules.map((line) => ({ ...line })) });
    expect(rule).toEqual({
      type: 'rule_group',
      rules: groupBody({ ...draft, rules: draft.rules.map((line) => ({ ...line })) }).rules,
    });
    expect(bodyShape.Check(previewBody(1, 1, rule))).toBe(true);
  });
});

describe('rule preview failures and unknowns', () => {
  it('point the master’s field names at the editor’s fields or the panel’s controls', () => {
    expect(errorTarget(['rule', 'entries', 1, 'condition', 'values', 0])).toEqual({
      form: ['acl', 1, 'condition', 'valuesText'],
    });
    expect(errorTarget(['rule', 'match', 'conditions', 0, 'header'])).toEqual({ form: ['conditions', 0, 'header'] });
    expect(errorTarget(['rule', 'rules', 2, 'filter_id'])).toEqual({ form: ['rules', 2, 'filter_id'] });
    expect(errorTarget(['rule', 'filter', 'requests'])).toEqual({ control: 'filter' });
    expect(errorTarget(['rule', 'action'])).toEqual({ control: 'action' });
    expect(errorTarget(['site_id'])).toEqual({ control: 'site' });
    expect(errorTarget(['hours'])).toEqual({ control: 'hours' });
    expect(errorTarget(['rule'])).toBeUndefined();
    expect(errorTarget(['name'])).toBeUndefined();
  });

  it('name the entry, condition or line a not-evaluated path points at, and why', () => {
    const acl = aclPreviewRule([
      { action: 'deny', condition: { field: 'ip', op: 'cidr', valuesText: '203.0.113.7', negate: false } },
      { action: 'deny', condition: headerCondition },
      { action: 'deny', condition: { field: 'path', op: 'regex', valuesText: '^/(?<x>a)\\k<x>', negate: false } },
    ]);
    const noHeader = {
      path: 'rule.entries[1].condition',
      reason: 'the access log does not keep the request header X-Token',
    };
    expect(rulePart(acl, noHeader)).toEqual({ kind: 'entry', index: 2, cause: 'header', header: 'X-Token' });
    expect(rulePart(acl, { path: 'rule.entries[2].condition', reason: 'PCRE' })).toEqual({
      kind: 'entry',
      index: 3,
      cause: 'regex',
    });
    const match = matchPreviewRule({ name: '', conditions: [headerCondition] }, rateFilter, 'block');
    expect(rulePart(match, { path: 'rule.match.conditions[0]', reason: 'no headers' })).toEqual({
      kind: 'condition',
      index: 1,
      cause: 'header',
      header: 'X-Token',
    });
    expect(rulePart(acl, { path: 'rule.entries[9].condition', reason: 'x' })).toBeUndefined();
    expect(rulePart(acl, { path: 'rule', reason: 'x' })).toBeUndefined();
  });

  it('name a group line’s condition from its match when the answer says which', () => {
    const group = groupPreviewRule({ name: '', rules: [{ match_id: 3, filter_id: 1, action: 'block' }] });
    const conditionsOf = (id: number) =>
      id === 3
        ? [
            { field: 'user_agent' as const, op: 'contains' as const, values: ['bot'], negate: false },
            { field: 'header' as const, op: 'equals' as const, values: ['1'], header: 'X-Debug', negate: false },
          ]
        : undefined;
    const reason = 'condition 1: the access log does not keep the request header X-Debug; the line is left out';
    expect(rulePart(group, { path: 'rule.rules[0].match_id', condition: 1, reason }, conditionsOf)).toEqual({
      kind: 'line',
      index: 1,
      condition: 2,
      cause: 'header',
      header: 'X-Debug',
    });
    // Without the match's conditions, or the condition's index, the line alone is named.
    expect(rulePart(group, { path: 'rule.rules[0].match_id', condition: 1, reason })).toEqual({
      kind: 'line',
      index: 1,
    });
    expect(rulePart(group, { path: 'rule.rules[0].match_id', reason }, conditionsOf)).toEqual({
      kind: 'line',
      index: 1,
    });
    // A User-Agent header is in the log: not a header cause.
    expect(causeOf({ field: 'header', op: 'equals', header: 'User-Agent' })).toBeUndefined();
  });
});
