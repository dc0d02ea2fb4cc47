import { describe, expect, it } from 'vitest';
import { cidrKeyRange, ipKey } from './ip-key.ts';

describe('ip keys', () => {
  it('map IPv4 into the IPv6 space and expand IPv6', () => {
    expect(ipKey('192.0.2.1')).toBe('00000000000000000000ffffc0000201');
    expect(ipKey('::ffff:192.0.2.1')).toBe(ipKey('192.0.2.1'));
    expect(ipKey('2001:db8::1')).toBe('20010db8000000000000000000000001');
    expect(ipKey('::')).toBe('0'.repeat(32));
    expect(ipKey('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
  });

  it('sort like the addresses they stand for', () => {
    const sorted = ['10.0.0.2', '10.0.0.10', '9.255.255.255', '192.0.2.1'].map((ip) => ipKey(ip) ?? '').sort();
    expect(sorted).toEqual(['9.255.255.255', '10.0.0.2', '10.0.0.10', '192.0.2.1'].map(ipKey));
  });

  it('refuse text that is no address', () => {
    for (const text of ['', 'localhost', '1.2.3', '1.2.3.256', ':::', '<script>']) expect(ipKey(text)).toBeNull();
  });

  it('turn a CIDR range into its first and last key', () => {
    expect(cidrKeyRange('203.0.113.0/24')).toEqual({ first: ipKey('203.0.113.0'), last: ipKey('203.0.113.255') });
    expect(cidrKeyRange('203.0.113.77/24')).toEqual({ first: ipKey('203.0.113.0'), last: ipKey('203.0.113.255') });
    expect(cidrKeyRange('198.51.100.7')).toEqual({ first: ipKey('198.51.100.7'), last: ipKey('198.51.100.7') });
    expect(cidrKeyRange('2001:db8::/32')).toEqual({
      first: '20010db8000000000000000000000000',
      last: '20010db8ffffffffffffffffffffffff',
    });
    for (const text of ['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/8', '::::/64', 'a/8', '2001:db8::/129']) {
      expect(cidrKeyRange(text), text).toBeNull();
    }
  });
});
