import { describe, expect, it } from 'vitest';
import { allowIpsText, parseAllowIps } from './allowIps.ts';
import { isIpOrCidr } from './ipText.ts';

describe('API key allow list', () => {
  it('accepts addresses and ranges of both families', () => {
    for (const entry of [
      '203.0.113.5',
      '203.0.113.0/24',
      '0.0.0.0/0',
      '2001:db8::1',
      '2001:db8::/32',
      '::1',
      '::ffff:192.0.2.1',
    ]) {
      expect(isIpOrCidr(entry), entry).toBe(true);
    }
  });

  it('refuses what is not an address or has a prefix out of range', () => {
    for (const entry of [
      '300.1.1.1',
      '10.0.0.0/33',
      '2001:db8::/129',
      'example.com',
      '1.2.3',
      '1::2::3',
      '10.0.0.0/8/8',
      '',
    ]) {
      expect(isIpOrCidr(entry), entry).toBe(false);
    }
  });

  it('reads one entry a line or separated by commas, once each, and names the first bad one', () => {
    expect(parseAllowIps('203.0.113.5\n 10.0.0.0/8, 203.0.113.5\n')).toEqual({
      ips: ['203.0.113.5', '10.0.0.0/8'],
      invalid: null,
    });
    expect(parseAllowIps('10.0.0.1 nope 10.0.0.2').invalid).toBe('nope');
    expect(parseAllowIps('   ')).toEqual({ ips: [], invalid: null });
    expect(allowIpsText(['1.1.1.1', '::1'])).toBe('1.1.1.1\n::1');
  });
});
