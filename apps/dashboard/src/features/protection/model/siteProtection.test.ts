import { DEFAULT_SITE_PROTECTION, DEFAULT_STATIC_EXTS, SiteProtection } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import type { Acl } from '../api.ts';
import { aclEntries, checkWhitelist, protectionBody, protectionValues } from './siteProtection.ts';
import { checkExclusions, wafSettings } from './waf.ts';

const protectionShape = Compile(SiteProtection);

const ACL: Acl = {
  id: 3,
  site_id: 7,
  user_id: 2,
  entries: [{ action: 'deny', condition: { field: 'path', op: 'prefix', values: ['/wp-admin'], negate: false } }],
  created_at: '2026-11-22T00:00:00Z',
  updated_at: '2026-11-22T00:00:00Z',
};

describe('the protection section', () => {
  it('reads a site saved before protection existed as the defaults, with no ACL', () => {
    const values = protectionValues(undefined, null);
    expect(values).toEqual({
      rule_group_id: null,
      attack_rule_group_id: null,
      under_attack: false,
      whitelistText: '',
      waf: { mode: 'off', paranoia: 1, exclusionsText: '', inspectStatic: false, staticExts: [...DEFAULT_STATIC_EXTS] },
      acl: [],
    });
    expect(protectionBody(values)).toEqual(DEFAULT_SITE_PROTECTION);
  });

  it('sends the protection the contracts accept and the ACL entries separately', () => {
    const values = protectionValues(DEFAULT_SITE_PROTECTION, ACL);
    const body = protectionBody({
      ...values,
      rule_group_id: 4,
      attack_rule_group_id: 0 as unknown as null,
      under_attack: true,
      whitelistText: ' 203.0.113.7 \n\n2001:db8::/48\n203.0.113.7\n',
      waf: { ...values.waf, mode: 'block', paranoia: 2, exclusionsText: '920350, 942100 920350' },
    });
    expect(body).toEqual({
      rule_group_id: 4,
      attack_rule_group_id: null,
      under_attack: true,
      whitelist: ['203.0.113.7', '2001:db8::/48'],
      waf: { mode: 'block', paranoia: 2, exclusions: [920350, 942100] },
    });
    expect(protectionShape.Check(body)).toBe(true);
    expect(aclEntries(values)).toEqual(ACL.entries);
  });

  it('refuses a whitelist line that is not an address or range, naming it', () => {
    expect(checkWhitelist('203.0.113.7\n10.0.0.0/8')).toBeUndefined();
    expect(checkWhitelist('203.0.113.7\n10.0.0.1; rm -rf /')).toEqual({
      key: 'cidr',
      values: { value: '10.0.0.1; rm -rf /' },
    });
    expect(checkWhitelist(Array.from({ length: 1001 }, (_, i) => `10.0.${i % 250}.${i % 200}`).join('\n'))).toEqual({
      key: 'whitelistMax',
      values: { max: 1000 },
    });
  });

  it('takes WAF rule ids from 1 to 9999999, at most 200', () => {
    expect(checkExclusions('920350 942100,949110')).toBeUndefined();
    expect(checkExclusions('920350 0')).toEqual({ key: 'exclusion', values: { value: '0', max: 9_999_999 } });
    expect(checkExclusions('12345678')?.key).toBe('exclusion');
    expect(checkExclusions('9201;')?.key).toBe('exclusion');
    expect(checkExclusions(Array.from({ length: 201 }, (_, i) => i + 1).join(' '))).toEqual({
      key: 'exclusionsMax',
      values: { max: 200 },
    });
    expect(
      wafSettings({ mode: 'detect', paranoia: 4, exclusionsText: '', inspectStatic: false, staticExts: ['png'] }),
    ).toEqual({
      mode: 'detect',
      paranoia: 4,
      exclusions: [],
      static_exts: ['png'],
    });
  });
});
