import type { Site } from '@rampart/contracts';
import { HostHeader, OriginAddress } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { asciiDomain, domainLines, fitsSchema, isDomain, serverFieldError } from './edgeRules.ts';
import { changedSiteFields, createSiteBody, siteFieldPath, siteFormValues } from './sitePayload.ts';

const SITE: Site = {
  id: 7,
  user_id: 2,
  group_id: null,
  line_group_id: null,
  name: 'shop',
  cname: '',
  cname_state: 'no_cname_domain',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  domains: ['shop.example.com'],
  origins: [{ address: '10.0.0.1', port: 80, weight: 1, backup: false }],
  balance: 'round_robin',
  origin_protocol: 'http',
  origin_host: '',
  http_listen: true,
  https_listen: false,
  cert_id: null,
  force_https: false,
  hsts: false,
  http2: false,
  websocket: false,
  gzip: true,
  request_headers: [],
  response_headers: [],
  cache_rules: [],
  enabled: true,
};

describe('site payloads', () => {
  it('builds the create body from the drawer, dropping an empty group and name', () => {
    expect(
      createSiteBody({
        domainsText: ' WWW.Example.com \n\nbücher.example\n',
        origins: [{ address: ' 10.0.0.2 ', port: 8080, weight: 3, backup: true }],
        group_id: null,
        name: '  ',
      }),
    ).toEqual({
      domains: ['www.example.com', 'xn--bcher-kva.example'],
      origins: [{ address: '10.0.0.2', port: 8080, weight: 3, backup: true }],
    });
  });

  it('sends only the changed fields on save', () => {
    const values = siteFormValues(SITE);
    expect(changedSiteFields(SITE, values)).toEqual({});
    expect(
      changedSiteFields(SITE, {
        ...values,
        origin_host: 'origin.example.com',
        origins: [...values.origins, { address: 'b.example.com', port: 81, weight: 2, backup: false }],
      }),
    ).toEqual({
      origin_host: 'origin.example.com',
      origins: [...SITE.origins, { address: 'b.example.com', port: 81, weight: 2, backup: false }],
    });
    expect(changedSiteFields(SITE, { ...values, domainsText: 'shop.example.com\nb.example.com' })).toEqual({
      domains: ['shop.example.com', 'b.example.com'],
    });
  });
});

describe('edge field rules', () => {
  it('accept domains the master accepts and refuse hostile ones', () => {
    expect(domainLines('a.com, b.com\n\n c.com ')).toEqual(['a.com', 'b.com', 'c.com']);
    expect(isDomain('*.example.com')).toBe(true);
    expect(isDomain('Bücher.example')).toBe(true);
    expect(asciiDomain('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(isDomain('a"b.example.com')).toBe(false);
    expect(isDomain('a;b.example.com')).toBe(false);
    expect(isDomain('localhost')).toBe(false);
  });

  it('check values against the contract schemas', () => {
    expect(fitsSchema(HostHeader, '')).toBe(true);
    expect(fitsSchema(HostHeader, 'origin.example.com')).toBe(true);
    expect(fitsSchema(HostHeader, 'x;y')).toBe(false);
    expect(fitsSchema(OriginAddress, '2001:db8::1')).toBe(true);
    expect(fitsSchema(OriginAddress, 'a b')).toBe(false);
  });

  it('map a server message to the field it names', () => {
    expect(serverFieldError('body/origin_host: must be empty or a host name')).toEqual({
      name: ['origin_host'],
      text: 'must be empty or a host name',
    });
    expect(serverFieldError('body/origins/0/address: must be an address')?.name).toEqual(['origins', 0, 'address']);
    expect(serverFieldError('listen_port: port 5353/udp is already used')?.name).toEqual(['listen_port']);
    expect(serverFieldError('the certificate is used by 2 site(s); change them first')).toBeUndefined();
    expect(siteFieldPath(['domains', 1])).toEqual(['domainsText']);
  });
});
