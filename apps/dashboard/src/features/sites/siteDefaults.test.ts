import { describe, expect, it } from 'vitest';
import { siteDefaultsValues, userConfigBody } from './siteDefaults.ts';

describe('site defaults', () => {
  it('shows unset toggles as the platform default', () => {
    expect(siteDefaultsValues({ gzip: false, balance: 'ip_hash' })).toEqual({
      balance: 'ip_hash',
      gzip: 'off',
      http2: 'inherit',
      websocket: 'inherit',
    });
  });

  it('sends only what the user set, leaving out inherited toggles and empty lists', () => {
    expect(
      userConfigBody({
        balance: 'ip_hash',
        http2: 'on',
        websocket: 'inherit',
        gzip: 'off',
        request_headers: [],
        response_headers: [{ name: 'X-Edge', value: 'rampart' }],
      }),
    ).toEqual({
      site_defaults: {
        balance: 'ip_hash',
        http2: true,
        gzip: false,
        response_headers: [{ name: 'X-Edge', value: 'rampart' }],
      },
    });
  });
});
