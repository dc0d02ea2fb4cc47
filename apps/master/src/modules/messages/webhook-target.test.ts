import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../private-address.ts';
import { checkWebhookUrl } from './webhook-target.ts';

describe('webhook targets', () => {
  it('tells loopback, private, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.1.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['203.0.113.9', '8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('takes public https URLs and names the field and rule of the rest', () => {
    expect(checkWebhookUrl('https://hooks.example.com/a?b=1', false)).toBe('https://hooks.example.com/a?b=1');
    expect(() => checkWebhookUrl('ftp://hooks.example.com/', false)).toThrow(
      'body/webhook_url: must be an https:// URL',
    );
    expect(() => checkWebhookUrl('https://user:pw@hooks.example.com/', false)).toThrow(
      'body/webhook_url: must not carry a user name or password',
    );
    expect(() => checkWebhookUrl('https://[::ffff:7f00:1]/', false)).toThrow('must not point at a loopback');
    expect(() => checkWebhookUrl('https://app.localhost/', false)).toThrow('must not point at a loopback');
    // Tests deliver to a local HTTPS server.
    expect(checkWebhookUrl('https://127.0.0.1:8443/hook', true)).toBe('https://127.0.0.1:8443/hook');
  });
});
