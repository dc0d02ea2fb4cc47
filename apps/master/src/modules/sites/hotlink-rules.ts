import type { SiteHotlink } from '@rampart/contracts';
import { AppError } from '../../errors.ts';

const invalid = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);

/** Whether `host` is `pattern` or, for `*.name`, name itself or any name under it. */
export const hostMatches = (pattern: string, host: string): boolean =>
  pattern.startsWith('*.') ? host === pattern.slice(2) || host.endsWith(pattern.slice(1)) : host === pattern;

/**
 * Rules of a site's hotlink protection that its schema cannot express. Throws invalid_param naming
 * the field: a host both allowed and denied, a redirect without a URL, a redirect that would be
 * refused again (to one of the site's own files the protection covers: a loop), extensions twice.
 */
export function checkHotlink(hotlink: SiteHotlink, domains: readonly string[]) {
  const extensions = new Set<string>();
  for (const [index, extension] of hotlink.extensions.entries()) {
    const lower = extension.toLowerCase();
    if (extensions.has(lower)) throw invalid(`hotlink/extensions/${index}`, `${extension} is listed twice`);
    extensions.add(lower);
  }
  for (const [index, host] of hotlink.deny.entries()) {
    if (hotlink.allow.includes(host)) throw invalid(`hotlink/deny/${index}`, `${host} is also in hotlink/allow`);
    const own = domains.find((domain) => hostMatches(host, domain));
    if (own) throw invalid(`hotlink/deny/${index}`, `${host} covers the site's own domain ${own}`);
  }
  if (hotlink.action !== 'redirect') return;
  if (hotlink.redirect_url === '') throw invalid('hotlink/redirect_url', 'a redirect needs a URL');
  let target: URL;
  try {
    target = new URL(hotlink.redirect_url);
  } catch {
    throw invalid('hotlink/redirect_url', `${hotlink.redirect_url} is not a URL`);
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(target.pathname)?.[1]?.toLowerCase();
  const ownHost = domains.some((domain) => hostMatches(domain, target.hostname.toLowerCase()));
  if (ownHost && extension && extensions.has(extension)) {
    throw invalid(
      'hotlink/redirect_url',
      `${target.hostname}${target.pathname} is one of this site's .${extension} files, which the protection refuses too: the redirect would loop`,
    );
  }
}
