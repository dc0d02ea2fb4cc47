import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import { isPrivateAddress } from '../../private-address.ts';

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
  if (addresses.some(isPrivateAddress)) {
    throw new AppError(
      'invalid_param',
      `credentials/url: ${host} is a private or loopback address, which is not allowed`,
    );
  }
  return url;
}
