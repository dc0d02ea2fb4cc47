import type { CacheRule, EdgeNodeSettings, EdgeSite, Header } from '@rampart/contracts';
import { integer, quote, RenderRefusal, regexLiteral, safeText } from './quote.ts';
import { renderUpstream } from './upstream.ts';
import { siteSchemaErrors } from './validate.ts';

export interface SiteContext {
  node: EdgeNodeSettings;
  listenAddress: string;
  /** Relative paths of the site's certificate and key, when it listens on HTTPS. */
  cert: { certPath: string; keyPath: string } | null;
}

/** Hop-by-hop and framing headers the proxy owns; a custom request header may not set them. */
const RESERVED_REQUEST_HEADERS = new Set([
  'connection',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'proxy-connection',
  'content-length',
]);

export const upstreamName = (siteId: number) => `rampart_site_${siteId}`;

/** The config of one site, after checking it against the contract schema again. */
export function renderSite(site: EdgeSite, context: SiteContext): string {
  const problem = siteSchemaErrors(site);
  if (problem) throw new RenderRefusal('site', problem);
  return renderSiteBody(site, context);
}

/** The config of one site; every value still passes through the quoting guards. */
export function renderSiteBody(site: EdgeSite, context: SiteContext): string {
  const id = integer(site.id, 'id');
  const name = upstreamName(site.id);
  const scheme = originScheme(site.origin_protocol);
  // "follow" gets one upstream per scheme, so kept-alive TLS and plain connections never mix.
  const upstreams =
    scheme === '$scheme'
      ? ['http', 'https'].map((s) => renderUpstream(`${name}_${s}`, site.origins, site.balance, 'http')).join('\n\n')
      : renderUpstream(name, site.origins, site.balance, 'http');
  const out: string[] = [`# site ${id}`, upstreams, '', 'server {'];
  const push = (line: string) => out.push(`    ${line}`);

  if (site.http_listen) push(`listen ${listenOn(context, context.node.http_port, 'http_port')};`);
  if (site.https_listen) {
    if (!context.cert) throw new RenderRefusal('cert_id', 'HTTPS needs a certificate');
    const http2 = site.http2 ? ' http2' : '';
    push(`listen ${listenOn(context, context.node.https_port, 'https_port')} ssl${http2};`);
  }
  push(`server_name ${site.domains.map((domain, i) => quote(domain, `domains[${i}]`, 253)).join(' ')};`);
  push(`set $rampart_site_id "${id}";`);
  push('set $rampart_block_reason "";');
  if (site.https_listen && context.cert) {
    push(`ssl_certificate ${quote(context.cert.certPath, 'cert path')};`);
    push(`ssl_certificate_key ${quote(context.cert.keyPath, 'key path')};`);
  }
  if (site.force_https && site.https_listen && site.http_listen) {
    const port = integer(context.node.https_port, 'https_port', 1, 65535);
    const authority = port === '443' ? '$host' : `$host:${port}`;
    push(`if ($scheme = http) { return 301 https://${authority}$request_uri; }`);
  }
  if (site.hsts && site.https_listen) push('add_header Strict-Transport-Security $rampart_hsts always;');
  if (site.cache_rules.length > 0) push('add_header X-Cache-Status $upstream_cache_status always;');
  site.response_headers.forEach((header, i) => {
    push(
      `more_set_headers ${quote(`${headerName(header, `response_headers[${i}]`)}: ${headerValue(header, `response_headers[${i}]`)}`, 'response header', 1200)};`,
    );
  });
  push(`gzip ${site.gzip ? 'on' : 'off'};`);

  const custom = new Map<string, string>();
  site.request_headers.forEach((header, i) => {
    const field = `request_headers[${i}]`;
    const headerKey = headerName(header, field);
    if (RESERVED_REQUEST_HEADERS.has(headerKey.toLowerCase()))
      throw new RenderRefusal(`${field}.name`, 'reserved header');
    custom.set(
      headerKey.toLowerCase(),
      `proxy_set_header ${quote(headerKey, field)} ${quote(headerValue(header, field), field, 1024)};`,
    );
  });
  const defaults: Array<[string, string]> = [
    [
      'host',
      `proxy_set_header Host ${site.origin_host === '' ? '$host' : quote(site.origin_host, 'origin_host', 253)};`,
    ],
    ['x-real-ip', 'proxy_set_header X-Real-IP $remote_addr;'],
    ['x-forwarded-for', 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;'],
    ['x-forwarded-proto', 'proxy_set_header X-Forwarded-Proto $scheme;'],
  ];
  for (const [key, line] of defaults) if (!custom.has(key)) push(line);
  for (const line of custom.values()) push(line);
  if (site.websocket) {
    push('proxy_set_header Upgrade $http_upgrade;');
    push('proxy_set_header Connection $rampart_connection_upgrade;');
    push('proxy_read_timeout 300s;');
  } else {
    push('proxy_set_header Connection "";');
  }
  if (scheme !== 'http') {
    push('proxy_ssl_server_name on;');
    push(`proxy_ssl_name ${site.origin_host === '' ? '$host' : quote(site.origin_host, 'origin_host', 253)};`);
  }
  const proxyPass = scheme === '$scheme' ? `proxy_pass $scheme://${name}_$scheme;` : `proxy_pass ${scheme}://${name};`;

  site.cache_rules.forEach((rule, i) => {
    out.push('', ...renderCacheRule(rule, `cache_rules[${i}]`, id, proxyPass).map((line) => `    ${line}`));
  });
  out.push('', '    location / {', `        ${proxyPass}`, '    }', '}', '');
  return out.join('\n');
}

function listenOn(context: SiteContext, port: number, field: string): string {
  const digits = integer(port, field, 1, 65535);
  if (context.listenAddress === '') return digits;
  return `${safeText(context.listenAddress, 'listen address', 64)}:${digits}`;
}

function originScheme(protocol: EdgeSite['origin_protocol']): string {
  if (protocol === 'http' || protocol === 'https') return protocol;
  if (protocol === 'follow') return '$scheme';
  throw new RenderRefusal('origin_protocol', 'must be http, https or follow');
}

function headerName(header: Header, field: string): string {
  const name = safeText(header.name, `${field}.name`, 64);
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(name)) throw new RenderRefusal(`${field}.name`, 'not a header name');
  return name;
}

function headerValue(header: Header, field: string): string {
  return safeText(header.value, `${field}.value`, 1024);
}

/**
 * One cache rule as a regex location: nginx tries regex locations in the order they appear, so
 * the first matching rule wins, as the rule list reads.
 */
function renderCacheRule(rule: CacheRule, field: string, siteId: string, proxyPass: string): string[] {
  let match: string;
  if (rule.match === 'prefix') match = `location ~ "^${regexLiteral(rule.value, `${field}.value`)}" {`;
  else if (rule.match === 'extension') {
    const extension = safeText(rule.value, `${field}.value`, 16);
    if (!/^[A-Za-z0-9]{1,16}$/.test(extension)) throw new RenderRefusal(`${field}.value`, 'not a file extension');
    match = `location ~* "[.]${extension}$" {`;
  } else throw new RenderRefusal(`${field}.match`, 'must be prefix or extension');
  const ttl = integer(rule.ttl, `${field}.ttl`, 0, 31_536_000);
  const key = rule.ignore_query ? '$rampart_request_path' : '$request_uri';
  const lines = [
    match,
    `    ${proxyPass}`,
    '    proxy_cache rampart_cache;',
    `    proxy_cache_key "${siteId}|$host${key}";`,
  ];
  if (ttl === '0' && rule.honor_origin !== true) {
    lines.push('    proxy_no_cache 1;', '    proxy_cache_bypass 1;');
  } else {
    lines.push(`    proxy_cache_valid 200 203 204 206 301 302 ${ttl}s;`);
    if (rule.honor_origin !== true) lines.push('    proxy_ignore_headers Cache-Control Expires X-Accel-Expires;');
    lines.push(
      '    proxy_cache_lock on;',
      '    proxy_cache_use_stale error timeout updating http_502 http_503 http_504;',
    );
  }
  lines.push('}');
  return lines;
}
