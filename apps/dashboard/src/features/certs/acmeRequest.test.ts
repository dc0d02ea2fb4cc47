import { describe, expect, it } from 'vitest';
import { acmeCertBody, anyIssuing, stepPercent, wildcardOf } from './acmeRequest.ts';

describe('ACME certificate request', () => {
  it('sends the domains one per line, the DNS API only for dns-01, and no blank name', () => {
    expect(
      acmeCertBody({ domains: ' www.example.com \n\nexample.com,api.example.com', challenge: 'http-01', dnsapi_id: 3 }),
    ).toEqual({
      type: 'acme',
      domains: ['www.example.com', 'example.com', 'api.example.com'],
      challenge: 'http-01',
    });
    expect(acmeCertBody({ name: ' shop ', domains: '*.example.com', challenge: 'dns-01', dnsapi_id: 3 })).toEqual({
      type: 'acme',
      name: 'shop',
      domains: ['*.example.com'],
      challenge: 'dns-01',
      dnsapi_id: 3,
    });
  });

  it('finds a wildcard, which only dns-01 can prove', () => {
    expect(wildcardOf('www.example.com\n*.example.com')).toBe('*.example.com');
    expect(wildcardOf('www.example.com')).toBeUndefined();
  });

  it('turns the issuance step into a percentage and knows when to keep polling', () => {
    expect(stepPercent('queued')).toBe(0);
    expect(stepPercent('validating')).toBe(67);
    expect(stepPercent('stored')).toBe(100);
    expect(stepPercent('')).toBe(0);
    expect(anyIssuing([{ status: 'issued' }, { status: 'issuing' }])).toBe(true);
    expect(anyIssuing([{ status: 'failed' }])).toBe(false);
  });
});
