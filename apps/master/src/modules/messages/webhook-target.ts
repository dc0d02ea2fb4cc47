import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { invalidParam } from '../../errors.ts';

/** Addresses a webhook must never reach: loopback, private, link-local, carrier NAT, multicast, reserved. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

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
