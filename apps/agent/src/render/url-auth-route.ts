import { type SiteUrlAuth, URL_AUTH_KEY_PATTERN, URL_AUTH_MAX_TTL } from '@rampart/contracts';
import { integer, RenderRefusal, safeText } from './quote.ts';

/** A site's signed URLs as the router reads them; absent while they are off. */
export interface UrlAuthRoute {
  type: 'a' | 'b' | 'c';
  /** The primary key, then the backup one when set. */
  keys: string[];
  ttl: number;
  /** Where a signature is needed; both empty: every request. */
  prefixes: string[];
  exts: string[];
}

const KEY = new RegExp(URL_AUTH_KEY_PATTERN);
const PREFIX = /^\/[A-Za-z0-9._~!*+,=:@%/-]*$/;
const EXTENSION = /^[a-z0-9]{1,16}$/;

export function urlAuthRoute(auth: SiteUrlAuth | undefined): UrlAuthRoute | undefined {
  if (!auth?.enabled) return undefined;
  if (auth.type !== 'a' && auth.type !== 'b' && auth.type !== 'c')
    throw new RenderRefusal('url_auth.type', 'a, b or c');
  const keys = [auth.key, auth.backup_key].filter((key) => key !== '');
  for (const [i, key] of keys.entries()) {
    if (!KEY.test(safeText(key, `url_auth.key[${i}]`, 64))) {
      throw new RenderRefusal(i === 0 ? 'url_auth.key' : 'url_auth.backup_key', '16 to 64 letters or digits');
    }
  }
  if (keys.length === 0) throw new RenderRefusal('url_auth.key', 'a primary key');
  const prefixes = auth.paths.map((path, i) => {
    const prefix = safeText(path, `url_auth.paths[${i}]`, 512);
    if (!PREFIX.test(prefix)) throw new RenderRefusal(`url_auth.paths[${i}]`, 'a path starting with /');
    return prefix;
  });
  const exts = auth.extensions.map((ext, i) => {
    const lower = safeText(ext, `url_auth.extensions[${i}]`, 16).toLowerCase();
    if (!EXTENSION.test(lower)) throw new RenderRefusal(`url_auth.extensions[${i}]`, '1 to 16 letters or digits');
    return lower;
  });
  return {
    type: auth.type,
    keys,
    ttl: Number(integer(auth.ttl, 'url_auth.ttl', 1, URL_AUTH_MAX_TTL)),
    prefixes,
    exts: [...new Set(exts)],
  };
}
