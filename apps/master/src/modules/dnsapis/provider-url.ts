import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors.ts';

// Where a user-supplied API URL must not lead: the master's own network (SSRF).
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::', 128],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

const isPrivate = (address: string) => PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** An http(s) URL whose host resolves only to public addresses (unless the operator allows private ones). */
export async function checkProviderUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_param', 'credentials/url: must be an http or https URL');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
    throw new AppError(
      'invalid_param',
      'credentials/url: must be an http or https URL without a user name or password',
    );
  }
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) throw new AppError('invalid_param', `credentials/url: ${host} does not resolve`);
  if (addresses.some(isPrivate)) {
    throw new AppError(
      'invalid_param',
      `credentials/url: ${host} is a private or loopback address, which is not allowed`,
    );
  }
  return url;
}
