import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { invalidParam } from '../../errors.ts';
import { isPrivateAddress } from '../../private-address.ts';

const FIELD = 'body/webhook_url';

/** The URL a user gives for their webhook: https, no credentials, not a loopback or private address. */
export function checkWebhookUrl(value: string, allowPrivateTargets: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParam(FIELD, 'must be an https:// URL');
  }
  if (url.protocol !== 'https:') throw invalidParam(FIELD, 'must be an https:// URL');
  if (url.username || url.password) throw invalidParam(FIELD, 'must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isPrivateAddress(host));
  if (local && !allowPrivateTargets) {
    throw invalidParam(FIELD, 'must not point at a loopback, private or link-local address');
  }
  return url.toString();
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The DNS lookup of a delivery: a name that resolves to a private address is refused when the
 * connection is made, so a name changed after it was saved (DNS rebinding) reaches nothing inside.
 */
export const publicOnlyLookup =
  (allowPrivateTargets: boolean) =>
  (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = !allowPrivateTargets && list.some((entry) => isPrivateAddress(entry.address));
      if (refused) {
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
        failure.code = 'EPRIVATE';
        return callback(failure, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
