import { describe, expect, it } from 'vitest';
import { certFileName, daysLeft, expiryState, uploadCertBody } from './certExpiry.ts';

const NOW = Date.parse('2026-11-21T00:00:00Z');

describe('certificate expiry', () => {
  it('highlights certificates that expire within 30 days', () => {
    expect(daysLeft('2026-12-01T00:00:00Z', NOW)).toBe(10);
    expect(expiryState('2026-12-01T00:00:00Z', NOW)).toBe('soon');
    expect(expiryState('2027-06-01T00:00:00Z', NOW)).toBe('ok');
    expect(expiryState('2026-11-01T00:00:00Z', NOW)).toBe('expired');
  });

  it('trims the PEM text and leaves out a blank name', () => {
    expect(uploadCertBody({ name: ' ', cert: '\nCERT\n', key: 'KEY ' })).toEqual({ cert: 'CERT', key: 'KEY' });
    expect(uploadCertBody({ name: 'shop', cert: 'C', key: 'K' })).toEqual({ name: 'shop', cert: 'C', key: 'K' });
  });

  it('names the download after the certificate, safe for a file system', () => {
    expect(certFileName('*.example.com')).toBe('_.example.com.pem');
    expect(certFileName('shop cert/2')).toBe('shop_cert_2.pem');
  });
});
