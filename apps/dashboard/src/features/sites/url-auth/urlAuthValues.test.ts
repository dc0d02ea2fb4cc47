import { DEFAULT_SITE_URL_AUTH, URL_AUTH_KEY_PATTERN } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { siteFieldPath } from '../sitePayload.ts';
import { durationParts, examplePath, generateUrlAuthKey, urlAuthBody, urlAuthValues } from './urlAuthValues.ts';

describe('signed URL values', () => {
  it('reads a site that never set it as the default, and writes it back unchanged', () => {
    expect(urlAuthValues(undefined)).toMatchObject({ enabled: false, pathsText: '' });
    expect(urlAuthBody(urlAuthValues(undefined))).toEqual(DEFAULT_SITE_URL_AUTH);
  });

  it('sends paths one per line, trimmed and each once, and keys without spaces', () => {
    const values = { ...urlAuthValues(undefined), key: ' abc ', pathsText: ' /a/\n\n/b\n/a/ ' };
    expect(urlAuthBody(values)).toMatchObject({ key: 'abc', paths: ['/a/', '/b'] });
  });

  it('generates keys of 32 letters and digits that differ each time', () => {
    const keys = new Set(Array.from({ length: 20 }, () => generateUrlAuthKey()));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key).toMatch(new RegExp(URL_AUTH_KEY_PATTERN));
    expect(generateUrlAuthKey(64)).toHaveLength(64);
  });

  it('puts a validity in whole days, hours, minutes and seconds', () => {
    expect(durationParts(1800)).toEqual([{ unit: 'minutes', count: 30 }]);
    expect(durationParts(90_061)).toEqual([
      { unit: 'days', count: 1 },
      { unit: 'hours', count: 1 },
      { unit: 'minutes', count: 1 },
      { unit: 'seconds', count: 1 },
    ]);
    expect(durationParts(31_536_000)).toEqual([{ unit: 'days', count: 365 }]);
  });

  it('signs an example file under the first path, of the first file type', () => {
    expect(examplePath('', [])).toBe('/example.mp4');
    expect(examplePath('/private/\n/b', ['m3u8'])).toBe('/private/example.m3u8');
  });

  it('maps the server’s signed URL field names onto the section’s fields', () => {
    expect(siteFieldPath(['url_auth', 'paths', 2])).toEqual(['url_auth', 'pathsText']);
    expect(siteFieldPath(['url_auth', 'extensions', 1])).toEqual(['url_auth', 'extensions']);
    expect(siteFieldPath(['url_auth', 'backup_key'])).toEqual(['url_auth', 'backup_key']);
    expect(siteFieldPath(['url_auth'])).toEqual(['url_auth', 'enabled']);
  });
});
