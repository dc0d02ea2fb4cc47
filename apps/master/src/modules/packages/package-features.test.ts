import {
  DEFAULT_SITE_HEALTH_CHECK,
  DEFAULT_SITE_HOTLINK,
  DEFAULT_SITE_PROTECTION,
  PACKAGE_FEATURES,
  type SiteSettings,
} from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS } from '../sites/site-rules.ts';
import {
  type ConditionLike,
  FEATURE_USES,
  featureSet,
  featuresUsed,
  forbiddenAfter,
  forbiddenList,
} from './package-features.ts';

const plain: SiteSettings = {
  ...DEFAULT_SITE_SETTINGS,
  domains: ['a.example.com'],
  origins: [{ address: '10.0.0.1', port: 80, weight: 1, backup: false }],
  protection: DEFAULT_SITE_PROTECTION,
};
const uses = (settings: Partial<SiteSettings> | Record<string, unknown>, conditions: ConditionLike[] = []) =>
  featuresUsed({ settings: { ...plain, ...settings } as SiteSettings, conditions });

describe('which package features a site uses', () => {
  it('finds none on a site with every feature off, and with the off values of each feature', () => {
    expect(uses({})).toEqual([]);
    expect(
      uses({
        hotlink: DEFAULT_SITE_HOTLINK,
        url_auth: { enabled: false } as SiteSettings['url_auth'],
        error_pages: {},
        redirects: { rules: [], host: 'off', trailing_slash: 'off' },
        health_check: { enabled: false },
      }),
    ).toEqual([]);
  });

  it('maps each setting that turns a feature on to that feature', () => {
    expect(uses({ https_listen: true, cert_id: 1 })).toEqual(['https']);
    expect(
      uses({ protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'detect', paranoia: 1, exclusions: [] } } }),
    ).toEqual(['waf']);
    expect(uses({ hotlink: { ...DEFAULT_SITE_HOTLINK, enabled: true } })).toEqual(['hotlink']);
    expect(uses({ url_auth: { enabled: true } as SiteSettings['url_auth'] })).toEqual(['url_auth']);
    expect(uses({ error_pages: { '502': '<html>down</html>' } })).toEqual(['error_pages']);
  });

  it('reads redirects, health checks and country or network conditions', () => {
    const rule = {
      match: 'exact',
      value: '/a',
      action: 'redirect',
      status: 301,
      target: '/b',
      keep_query: true,
    } as const;
    expect(uses({ redirects: { rules: [rule], host: 'off', trailing_slash: 'off' } })).toEqual(['redirects']);
    expect(uses({ redirects: { rules: [], host: 'to_www', trailing_slash: 'off' } })).toEqual(['redirects']);
    expect(uses({ redirects: { rules: [], host: 'off', trailing_slash: 'add' } })).toEqual(['redirects']);
    expect(uses({ redirects: { rules: [], host: 'off', trailing_slash: 'off' } })).toEqual([]);
    expect(uses({ health_check: { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true } })).toEqual(['health_check']);
    expect(uses({ health_check: DEFAULT_SITE_HEALTH_CHECK })).toEqual([]);
    expect(uses({}, [{ field: 'ip' }, { field: 'country' }])).toEqual(['geo']);
    expect(uses({}, [{ field: 'asn' }])).toEqual(['geo']);
    expect(uses({}, [{ field: 'path' }])).toEqual([]);
  });

  it('lists several features in PACKAGE_FEATURES order', () => {
    expect(
      uses({ url_auth: { enabled: true } as SiteSettings['url_auth'], https_listen: true, cert_id: 1 }, [
        { field: 'country' },
      ]),
    ).toEqual(['https', 'url_auth', 'geo']);
  });

  it('has an entry for every feature, and its off value turns it off', () => {
    const all = {
      ...plain,
      https_listen: true,
      force_https: true,
      cert_id: 1,
      protection: { ...DEFAULT_SITE_PROTECTION, rule_group_id: 5, waf: { mode: 'block', paranoia: 1, exclusions: [] } },
      hotlink: { ...DEFAULT_SITE_HOTLINK, enabled: true },
      url_auth: { enabled: true },
      error_pages: { '404': 'x' },
      redirects: { rules: [], host: 'to_www', trailing_slash: 'off' },
      health_check: { enabled: true },
    } as unknown as SiteSettings;
    for (const feature of PACKAGE_FEATURES) {
      const use = FEATURE_USES[feature];
      expect(use.field).not.toBe('');
      expect(use.uses({ settings: all, conditions: [{ field: 'country' }] }), feature).toBe(true);
      const off = use.off?.(all);
      if (off) expect(featuresUsed({ settings: off, conditions: [] }), feature).not.toContain(feature);
    }
    const httpsOff = FEATURE_USES.https.off?.(all);
    expect(httpsOff).toMatchObject({ https_listen: false, force_https: false, http_listen: true });
    expect(FEATURE_USES.geo.off?.(all).protection).toMatchObject({ rule_group_id: null, attack_rule_group_id: null });
  });
});

describe('how a package stores its switches', () => {
  it('allows every feature of an empty list, and ignores names it does not know', () => {
    expect(Object.values(featureSet(forbiddenList('[]')))).toEqual(PACKAGE_FEATURES.map(() => true));
    expect(forbiddenList('["hotlink","teleport"]')).toEqual(['hotlink']);
    expect(featureSet(['hotlink'])).toMatchObject({ hotlink: false, https: true, waf: true });
  });

  it('changes only the switches a body sends', () => {
    expect(forbiddenAfter([], { hotlink: false, waf: false })).toEqual(['waf', 'hotlink']);
    expect(forbiddenAfter(['waf', 'hotlink'], { waf: true })).toEqual(['hotlink']);
    expect(forbiddenAfter(['geo'], { name: 'renamed' })).toEqual(['geo']);
  });
});
