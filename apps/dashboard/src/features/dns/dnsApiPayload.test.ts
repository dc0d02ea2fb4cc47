import { describe, expect, it } from 'vitest';
import { createDnsApiBody, updateDnsApiBody } from './dnsApiPayload.ts';

describe('DNS API payloads', () => {
  it('creates a PowerDNS account and leaves out a blank server id', () => {
    expect(
      createDnsApiBody({ name: ' ns1 ', url: 'https://ns.example.com:8081 ', api_key: 'k', server_id: ' ' }),
    ).toEqual({ name: 'ns1', provider: 'powerdns', credentials: { url: 'https://ns.example.com:8081', api_key: 'k' } });
    expect(createDnsApiBody({ name: 'a', url: 'u', api_key: 'k', server_id: 'main' }).credentials.server_id).toBe(
      'main',
    );
  });

  it('renames without touching the stored credentials unless a new key is typed', () => {
    expect(updateDnsApiBody({ name: 'renamed', url: 'https://x', api_key: '' })).toEqual({ name: 'renamed' });
    expect(updateDnsApiBody({ name: 'n', url: 'https://x', api_key: 'new' })).toEqual({
      name: 'n',
      credentials: { url: 'https://x', api_key: 'new' },
    });
  });
});

describe('DNS API payloads for the hosted providers', () => {
  it('sends only the chosen provider’s fields', () => {
    expect(createDnsApiBody({ name: 'cf', provider: 'cloudflare', api_token: ' t ', url: 'https://x' })).toEqual({
      name: 'cf',
      provider: 'cloudflare',
      credentials: { api_token: 't' },
    });
    expect(createDnsApiBody({ name: 'pod', provider: 'dnspod', secret_id: 'AKID', secret_key: 'k' })).toEqual({
      name: 'pod',
      provider: 'dnspod',
      credentials: { secret_id: 'AKID', secret_key: 'k' },
    });
    expect(updateDnsApiBody({ name: 'pod', secret_id: 'AKID' }, 'dnspod')).toEqual({ name: 'pod' });
    expect(
      createDnsApiBody({ name: 'ali', provider: 'alidns', access_key_id: ' LTAI5t ', access_key_secret: 's' }),
    ).toEqual({ name: 'ali', provider: 'alidns', credentials: { access_key_id: 'LTAI5t', access_key_secret: 's' } });
    expect(updateDnsApiBody({ name: 'ali', access_key_id: 'LTAI5t' }, 'alidns')).toEqual({ name: 'ali' });
    expect(updateDnsApiBody({ name: 'cf', api_token: 'new' }, 'cloudflare')).toEqual({
      name: 'cf',
      credentials: { api_token: 'new' },
    });
  });
});
