import { isIPv6 } from 'node:net';
import type { Origin, SiteSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { checkHealthCheck } from './health-check-rules.ts';
import { checkHotlink } from './hotlink-rules.ts';
import { checkRedirects } from './redirect-rules.ts';
import { isIpLiteral } from './site-claims.ts';
import { checkUrlAuth } from './url-auth-rules.ts';

export const DEFAULT_SITE_SETTINGS: Omit<SiteSettings, 'domains' | 'origins'> = {
  balance: 'round_robin',
  origin_protocol: 'http',
  origin_host: '',
  http_listen: true,
  https_listen: false,
  cert_id: null,
  force_https: false,
  hsts: false,
  http2: false,
  websocket: false,
  gzip: true,
  request_headers: [],
  response_headers: [],
  cache_rules: [],
  enabled: true,
};

// Set by the proxy itself: a custom value would break proxying or framing.
const RESERVED_REQUEST_HEADERS = [
  'host',
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  'x-forwarded-for',
];
const RESERVED_RESPONSE_HEADERS = [
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'trailer',
  'x-cache-status',
];

const invalid = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);

/** Why an IP literal is no site domain, in the words the caller sees. */
export const IP_LITERAL = (domain: string) => `${domain} is an IP address; a site's domains are names`;

/** Origin rules shared by sites and streams. */
export function checkOrigins(origins: readonly Origin[], balance: string) {
  if (!origins.some((origin) => !origin.backup)) throw invalid('origins', 'at least one origin must not be a backup');
  if (balance === 'ip_hash' && origins.some((origin) => origin.backup)) {
    throw invalid('origins', 'backup origins cannot be combined with ip_hash balancing');
  }
  const seen = new Set<string>();
  for (const [index, origin] of origins.entries()) {
    // The schema only shapes IPv6 loosely; the address itself must parse.
    if (origin.address.includes(':') && !isIPv6(origin.address)) {
      throw invalid(`origins/${index}/address`, `${origin.address} is not a valid IPv6 address`);
    }
    const key = `${origin.address.toLowerCase()}:${origin.port}`;
    if (seen.has(key)) throw invalid('origins', `${key} is listed twice`);
    seen.add(key);
  }
}

/** Rules across fields that a schema cannot express. Throws invalid_param naming the field. */
export function checkSiteSettings(settings: SiteSettings) {
  const domains = new Set<string>();
  for (const [index, domain] of settings.domains.entries()) {
    if (isIpLiteral(domain)) throw invalid(`domains/${index}`, IP_LITERAL(domain));
    if (domains.has(domain)) throw invalid('domains', `${domain} is listed twice`);
    domains.add(domain);
  }
  checkOrigins(settings.origins, settings.balance);
  if (!settings.http_listen && !settings.https_listen)
    throw invalid('http_listen', 'a site must listen on HTTP, HTTPS or both');
  if (settings.https_listen && settings.cert_id === null) throw invalid('cert_id', 'HTTPS needs a certificate');
  if (settings.force_https && !settings.https_listen) throw invalid('force_https', 'needs HTTPS to be on');
  if (settings.hsts && !settings.https_listen) throw invalid('hsts', 'needs HTTPS to be on');
  if (settings.http2 && !settings.https_listen) throw invalid('http2', 'needs HTTPS to be on');
  for (const [index, rule] of settings.cache_rules.entries()) {
    const ok = rule.match === 'prefix' ? rule.value.startsWith('/') : /^[A-Za-z0-9]{1,16}$/.test(rule.value);
    if (!ok) {
      throw invalid(
        `cache_rules/${index}/value`,
        rule.match === 'prefix'
          ? 'a prefix rule needs a path starting with /'
          : 'an extension rule needs 1 to 16 letters or digits',
      );
    }
  }
  if (settings.hotlink) checkHotlink(settings.hotlink, settings.domains);
  if (settings.url_auth) checkUrlAuth(settings.url_auth);
  if (settings.redirects) checkRedirects(settings.redirects, settings.domains);
  if (settings.health_check) checkHealthCheck(settings.health_check);
  for (const [list, reserved] of [
    ['request_headers', RESERVED_REQUEST_HEADERS],
    ['response_headers', RESERVED_RESPONSE_HEADERS],
  ] as const) {
    for (const [index, header] of settings[list].entries()) {
      if (reserved.includes(header.name.toLowerCase())) {
        throw invalid(`${list}/${index}/name`, `${header.name} is set by the proxy and cannot be changed here`);
      }
    }
  }
}
