import { describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { certCovers, parseCertificate } from './cert-validation.ts';

const ca = makeCert(['Rampart Test CA'], { ca: true });
const leaf = makeCert(['www.example.com', '*.example.com'], { issuer: ca });

describe('parseCertificate', () => {
  it('accepts a leaf with its chain and reads names, issuer and validity', () => {
    const parsed = parseCertificate(leaf.cert + ca.cert, leaf.key);
    expect(parsed.names).toEqual(['www.example.com', '*.example.com']);
    expect(parsed.issuer).toContain('CN=Rampart Test CA');
    expect(parsed.notAfter).toBeGreaterThan(Date.now());
  });

  it('refuses a key that belongs to another certificate', () => {
    expect(() => parseCertificate(leaf.cert, ca.key)).toThrow('key: does not belong to the first certificate');
  });

  it('refuses a chain in the wrong order', () => {
    expect(() => parseCertificate(ca.cert + leaf.cert, leaf.key)).toThrow(
      'key: does not belong to the first certificate',
    );
    const other = makeCert(['other.example.com']);
    expect(() => parseCertificate(leaf.cert + other.cert, leaf.key)).toThrow(
      'cert: certificate 2 did not issue certificate 1',
    );
  });

  it('refuses an expired certificate', () => {
    const later = Date.now() + 60 * 24 * 3600 * 1000;
    expect(() => parseCertificate(leaf.cert, leaf.key, later)).toThrow(/^cert: expired on /);
  });

  it('refuses text that is not PEM', () => {
    expect(() => parseCertificate('hello', leaf.key)).toThrow('cert: must hold at least one PEM certificate');
    expect(() => parseCertificate(leaf.cert, 'not a key')).toThrow('key: must be an unencrypted PEM private key');
  });
});

describe('certCovers', () => {
  it('matches exact names and one level of wildcard', () => {
    expect(certCovers(['*.example.com'], 'a.example.com')).toBe(true);
    expect(certCovers(['*.example.com'], 'a.b.example.com')).toBe(false);
    expect(certCovers(['*.example.com'], 'example.com')).toBe(false);
    expect(certCovers(['*.example.com'], '*.example.com')).toBe(true);
    expect(certCovers(['example.com'], 'example.com')).toBe(true);
  });
});
