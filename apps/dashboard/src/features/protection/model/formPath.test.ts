import { describe, expect, it } from 'vitest';
import { serverFieldError } from '../../sites/edgeRules.ts';
import { formPath } from './formPath.ts';

const pathOf = (msg: string) => {
  const named = serverFieldError(msg);
  return named && formPath(named.name);
};

describe('master field messages on the protection forms', () => {
  it('land on the one-per-line box that holds the named list item', () => {
    expect(pathOf('conditions/1/values/3: 10.0.0.0/99 has a prefix length out of range')).toEqual([
      'conditions',
      1,
      'valuesText',
    ]);
    expect(pathOf('protection/whitelist/2: x is not an IP address or CIDR range')).toEqual(['whitelistText']);
    expect(pathOf('body/protection/waf/exclusions/0: must be at most 9999999')).toEqual(['waf', 'exclusionsText']);
    expect(pathOf('protection/rule_group_id: rule group 9 does not exist')).toEqual(['rule_group_id']);
  });

  it('land ACL entries on the section’s entry list and rule lines on their line', () => {
    expect(pathOf('entries/0/condition/op: field ip compares with cidr')).toEqual(['acl', 0, 'condition', 'op']);
    expect(pathOf('rules/2/match_id: match 40 does not exist')).toEqual(['rules', 2, 'match_id']);
  });
});
