import { DEFAULT_SITE_HOTLINK } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { siteFieldPath } from '../sitePayload.ts';
import { hotlinkBody, hotlinkValues, normalizeExtensions } from './hotlinkValues.ts';

describe('hotlink values', () => {
  it('reads a site that never set it as the default, and writes it back unchanged', () => {
    expect(hotlinkValues(undefined)).toMatchObject({ enabled: false, allowText: '', denyText: '' });
    expect(hotlinkBody(hotlinkValues(undefined))).toEqual(DEFAULT_SITE_HOTLINK);
  });

  it('sends hosts in punycode, lowercase and once, and no redirect URL with a forbid', () => {
    const values = {
      ...hotlinkValues(DEFAULT_SITE_HOTLINK),
      allowText: 'Bücher.example\nbücher.example, *.CDN.example.net\n',
      redirect_url: 'https://img.example.org/x.png',
    };
    expect(hotlinkBody(values)).toMatchObject({
      allow: ['xn--bcher-kva.example', '*.cdn.example.net'],
      action: 'forbid',
      redirect_url: '',
    });
    expect(hotlinkBody({ ...values, action: 'redirect' }).redirect_url).toBe('https://img.example.org/x.png');
  });

  it('takes extensions without the dot, lowercase, each once', () => {
    expect(normalizeExtensions(['png', '.PNG', ' Webp '])).toEqual(['png', 'webp']);
  });

  it('maps the server’s hotlink field names onto the section’s fields', () => {
    expect(siteFieldPath(['hotlink', 'deny', 0])).toEqual(['hotlink', 'denyText']);
    expect(siteFieldPath(['hotlink', 'allow', 3])).toEqual(['hotlink', 'allowText']);
    expect(siteFieldPath(['hotlink', 'extensions', 1])).toEqual(['hotlink', 'extensions']);
    expect(siteFieldPath(['hotlink', 'redirect_url'])).toEqual(['hotlink', 'redirect_url']);
    expect(siteFieldPath(['hotlink'])).toEqual(['hotlink', 'enabled']);
  });
});
