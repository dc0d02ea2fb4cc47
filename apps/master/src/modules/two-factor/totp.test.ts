import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, timeStep, totp } from './totp.ts';

// RFC 6238 Appendix B and RFC 4226 Appendix D: the SHA-1 seed is the ASCII string below.
const SEED = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('matches the RFC 6238 SHA-1 vector at T = %i s', (seconds, expected) => {
    expect(totp(SEED, seconds * 1000, 8)).toBe(expected);
    // Six digits are the same value modulo 10^6: the last six of the eight.
    expect(totp(SEED, seconds * 1000)).toBe(expected.slice(2));
  });

  it('matches the RFC 4226 HOTP vectors for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(SEED, counter))).toEqual(expected);
  });

  it('accepts one step either side of now and no further', () => {
    const now = 1_700_000_000_000;
    const step = timeStep(now);
    expect(matchTotp(SEED, hotp(SEED, step), now)).toBe(step);
    expect(matchTotp(SEED, hotp(SEED, step - 1), now)).toBe(step - 1);
    expect(matchTotp(SEED, hotp(SEED, step + 1), now)).toBe(step + 1);
    expect(matchTotp(SEED, hotp(SEED, step - 2), now)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step + 2), now)).toBeNull();
  });

  it('refuses a code for a step already used, and anything but six digits', () => {
    const now = 1_700_000_000_000;
    const step = timeStep(now);
    const code = hotp(SEED, step);
    expect(matchTotp(SEED, code, now, step)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step + 1), now, step)).toBe(step + 1);
    expect(matchTotp(SEED, ` ${code}`, now)).toBeNull();
    expect(matchTotp(SEED, '12345', now)).toBeNull();
  });

  it('writes base32 as RFC 4648 does and reads it back', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv-gy3tqojqgezdgnbvgy3tqojq')).toEqual(SEED);
    expect(() => base32Decode('GEZ1')).toThrow(/base32/);
  });

  it('writes the otpauth URI with the issuer, the account and the defaults spelled out', () => {
    const uri = new URL(otpauthUri('Rampart CDN', 'alice@example.com', 'JBSWY3DPEHPK3PXP'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Rampart CDN:alice@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Rampart CDN',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
