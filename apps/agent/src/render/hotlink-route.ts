import { DOMAIN_PATTERN, HOTLINK_REDIRECT_PATTERN, type SiteHotlink } from '@rampart/contracts';
import { RenderRefusal, safeText } from './quote.ts';

/**
 * A site's hotlink protection as the router reads it: host lists as lookup keys (`example.com` for
 * the name itself, `.example.com` for every name under it, as `*.example.com` covers both), so a
 * request looks its Referer's host up label by label instead of walking the lists.
 */
export interface HotlinkRoute {
  /** File extensions covered, lower case. */
  exts: string[];
  /** Hosts that pass; absent: every host not denied (the site's own domains are always in it). */
  allow?: string[];
  deny: string[];
  allow_empty: boolean;
  /** Where a refused request is sent (302); absent: 403. */
  redirect?: string;
}

const DOMAIN = new RegExp(DOMAIN_PATTERN);
const REDIRECT = new RegExp(HOTLINK_REDIRECT_PATTERN);
const EXTENSION = /^[a-z0-9]{1,16}$/;

/** `*.example.com` → `.example.com` and `example.com`; `example.com` → itself. */
function hostKeys(hosts: readonly string[], field: string): string[] {
  const keys = new Set<string>();
  for (const [i, value] of hosts.entries()) {
    const host = safeText(value, `${field}[${i}]`, 253).toLowerCase();
    if (!DOMAIN.test(host)) throw new RenderRefusal(`${field}[${i}]`, 'not a domain name');
    if (host.startsWith('*.')) {
      keys.add(host.slice(1));
      keys.add(host.slice(2));
    } else keys.add(host);
  }
  return [...keys];
}

/** The route of an enabled protection; undefined when it is off or absent. */
export function hotlinkRoute(hotlink: SiteHotlink | undefined, domains: readonly string[]): HotlinkRoute | undefined {
  if (!hotlink?.enabled) return undefined;
  const exts = hotlink.extensions.map((ext, i) => {
    const lower = safeText(ext, `hotlink.extensions[${i}]`, 16).toLowerCase();
    if (!EXTENSION.test(lower)) throw new RenderRefusal(`hotlink.extensions[${i}]`, '1 to 16 letters or digits');
    return lower;
  });
  if (exts.length === 0) throw new RenderRefusal('hotlink.extensions', 'at least one extension');
  const route: HotlinkRoute = {
    exts: [...new Set(exts)],
    deny: hostKeys(hotlink.deny, 'hotlink.deny'),
    allow_empty: hotlink.allow_empty === true,
  };
  if (hotlink.allow.length > 0) {
    route.allow = hostKeys([...hotlink.allow, ...domains], 'hotlink.allow');
  }
  if (hotlink.action === 'redirect') {
    const url = safeText(hotlink.redirect_url, 'hotlink.redirect_url', 2048);
    if (!REDIRECT.test(url)) throw new RenderRefusal('hotlink.redirect_url', 'an http(s) URL');
    route.redirect = url;
  } else if (hotlink.action !== 'forbid') {
    throw new RenderRefusal('hotlink.action', 'forbid or redirect');
  }
  return route;
}
