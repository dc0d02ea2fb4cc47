import { createHash } from 'node:crypto';
import {
  type ApplyError,
  DEFAULT_EDGE_SETTINGS,
  type EdgeCert,
  type EdgeSite,
  type EdgeSnapshot,
  type EdgeStream,
  type EdgeUnknownHost,
} from '@rampart/contracts';
import { errorPageTree } from './error-pages.ts';
import { renderMainConfig, versionToken } from './nginx-conf.ts';
import { routeProtection } from './protection.ts';
import { RenderRefusal } from './quote.ts';
import { type CacheProfile, profileOf, type SiteRoute, siteRoute } from './site-route.ts';
import { renderStream } from './stream.ts';
import type { RenderedFile, RenderOptions } from './types.ts';
import {
  certProblem,
  edgeSettingsErrors,
  idOf,
  nodeErrors,
  siteProblem,
  streamProblem,
  unknownHostErrors,
} from './validate.ts';
import { type CrsRuleFile, renderCrsCopy, renderWafRules, WafProfiles, wafStaticExts } from './waf.ts';

export interface RenderedTree {
  version: number;
  /** What the control server's /version answers once this tree is live. */
  token: string;
  files: RenderedFile[];
  errors: ApplyError[];
  sites: number[];
  streams: number[];
  /** Where this tree's nginx keeps the cache (purges by directory walk it). */
  cacheDir: string;
  /** What routes.json holds (the Lua router's data), for the delta of the next swap. */
  routes: RoutesData;
}

/** routes.json: what the Lua router serves from; a swap replaces it without a reload. */
export interface RoutesData {
  version: number;
  token: string;
  https_port: number;
  secret: string;
  sites: SiteRoute[];
  /** PEM pairs by certificate id. */
  certs: Record<string, { cert: string; key: string }>;
  acme: Record<string, string>;
  protection: unknown;
  unknown_host: { action: string; waf?: number };
  error_pages?: { default_language: string; files: unknown };
}

export class SnapshotRejected extends Error {
  override name = 'SnapshotRejected';
}

const FILE_MODE = 0o644;
const SECRET_MODE = 0o600;

/**
 * The whole nginx configuration of one snapshot. Every site, stream and certificate is validated
 * on its own; one that fails is left out and reported, and the rest render.
 */
export function renderTree(snapshot: EdgeSnapshot, options: RenderOptions): RenderedTree {
  const version = snapshot?.version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
    throw new SnapshotRejected('snapshot version is not a non-negative integer');
  }
  const nodeProblem = nodeErrors(snapshot.node);
  if (nodeProblem) throw new SnapshotRejected(`node settings: ${nodeProblem}`);
  const { node } = snapshot;
  const unknownHost = snapshot.unknown_host ?? NO_SITE_DEFAULT;
  const unknownHostProblem = unknownHostErrors(unknownHost);
  if (unknownHostProblem) throw new SnapshotRejected(`unknown_host: ${unknownHostProblem}`);
  // The fleet's settings are all or nothing: an invalid one rejects the snapshot, the live config stays.
  const settings = snapshot.edge_settings ?? DEFAULT_EDGE_SETTINGS;
  const settingsProblem = edgeSettingsErrors(settings);
  if (settingsProblem) throw new SnapshotRejected(`edge_settings: ${settingsProblem}`);
  const errorPages = errorPageTree(settings.error_pages);
  const exclude = options.exclude ?? {};
  const errors: ApplyError[] = [];
  const report = (kind: ApplyError['kind'], id: number, error: string) => errors.push({ kind, id, error });

  const certs = new Map<number, EdgeCert>();
  for (const cert of asArray(snapshot.certs)) {
    const id = idOf(cert);
    const problem = exclude.certs?.has(id) ? 'nginx could not load this certificate' : certProblem(cert as EdgeCert);
    if (problem) report('cert', id, problem);
    else certs.set(id, cert as EdgeCert);
  }

  const files: RenderedFile[] = [];
  const sites: number[] = [];
  const routes: SiteRoute[] = [];
  let http2 = false;
  const seenSites = new Set<number>();
  const usedCerts = new Set<number>();
  const domainOwner = new Map<string, number>();
  const routeContext = { resolved: options.resolved ?? new Map<string, readonly string[]>() };
  for (const candidate of asArray(snapshot.sites)) {
    const id = idOf(candidate);
    if (exclude.sites?.has(id)) continue;
    if (seenSites.has(id)) {
      report('site', id, 'the same site id appears twice in the snapshot');
      continue;
    }
    seenSites.add(id);
    const site = candidate as EdgeSite;
    const problem = siteProblem(site, certs);
    if (problem) {
      report('site', id, problem);
      continue;
    }
    if (!site.enabled || (!site.http_listen && !site.https_listen)) continue;
    const domains = site.domains.filter((domain) => {
      const owner = domainOwner.get(domain);
      if (owner !== undefined) report('site', id, `domain ${domain} is already served by site ${owner}; ignored here`);
      return owner === undefined;
    });
    if (domains.length === 0) continue;
    try {
      routes.push(siteRoute({ ...site, domains }, routeContext));
    } catch (error) {
      report('site', id, refusalMessage(error));
      continue;
    }
    for (const domain of domains) domainOwner.set(domain, id);
    if (site.https_listen && site.cert_id !== null) usedCerts.add(site.cert_id);
    // nginx 1.22 negotiates HTTP/2 per listening socket, not per server name.
    if (site.https_listen && site.http2 && settings.nginx.http2) http2 = true;
    sites.push(id);
  }

  // Certificates travel in routes.json (read by the nginx master, 0600); the first one is also the
  // file nginx loads at start-up for the HTTPS listener, which every handshake replaces by SNI.
  const routeCerts: Record<string, { cert: string; key: string }> = {};
  for (const id of [...usedCerts].sort((a, b) => a - b)) {
    const cert = certs.get(id)!;
    routeCerts[String(id)] = { cert: ensureNewline(cert.cert_pem), key: ensureNewline(cert.key_pem) };
  }
  const firstId = Object.keys(routeCerts)[0];
  const firstCert = firstId === undefined ? undefined : routeCerts[firstId];
  const defaultCert =
    firstId === undefined ? null : { certPath: `certs/${firstId}.pem`, keyPath: `certs/${firstId}.key` };
  if (firstCert && defaultCert) {
    files.push({ path: defaultCert.certPath, content: firstCert.cert, mode: SECRET_MODE });
    files.push({ path: defaultCert.keyPath, content: firstCert.key, mode: SECRET_MODE });
  }
  const acme: Record<string, string> = {};
  for (const challenge of asArray(snapshot.acme_challenges)) {
    const { token, key_authorization: answer } = (challenge ?? {}) as { token?: unknown; key_authorization?: unknown };
    if (typeof token === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(token) && typeof answer === 'string') {
      if (/^[A-Za-z0-9_.-]{1,300}$/.test(answer)) acme[token] = answer;
    }
  }
  const live = new Set(sites);
  const guarded = routeProtection(
    snapshot.protection,
    asArray(snapshot.sites).filter((site) => live.has(idOf(site))) as EdgeSite[],
  );
  for (const [id, problem] of guarded.problems) if (live.has(id)) report('site', id, `protection: ${problem}`);
  // A group left out here is left out of the site too, so the edge does not report it a second time.
  const shipped = new Set(guarded.protection.rule_groups.map((group) => group.id));
  for (const route of routes) {
    const p = route.protection;
    if (!p) continue;
    const keep = (id: number | null) => (id !== null && shipped.has(id) ? id : null);
    route.protection = {
      ...p,
      rule_group_id: keep(p.rule_group_id),
      attack_rule_group_id: keep(p.attack_rule_group_id),
    };
  }
  const waf = wafOf(routes, unknownHost, options, report);
  if (waf) files.push({ path: WAF_RULES_FILE, content: waf.rules, mode: FILE_MODE });
  for (const file of waf?.crs ?? [])
    files.push({ path: `${WAF_CRS_DIR}/${file.name}`, content: file.text, mode: FILE_MODE });
  const token = versionToken(version, options.applyId);
  const profiles = new Map<string, CacheProfile>();
  for (const route of routes) for (const rule of route.cache) profiles.set(rule.location, profileOf(rule.location));
  const routeData: RoutesData = {
    version,
    token,
    https_port: node.https_port,
    secret: options.challengeSecret,
    sites: routes,
    certs: routeCerts,
    acme,
    protection: guarded.protection,
    unknown_host: { action: unknownHost.action, ...(waf?.unknownHost ? { waf: waf.unknownHost } : {}) },
    ...(errorPages.files.length > 0
      ? { error_pages: { default_language: settings.error_pages.default_language, files: errorPages.lua } }
      : {}),
  };
  const routesJson = { path: 'routes.json', content: `${JSON.stringify(routeData)}\n`, mode: SECRET_MODE };
  files.push(routesJson);
  const http = {
    defaultCert,
    http2,
    cacheProfiles: [...profiles.values()].sort(
      (a, b) => a.ttl - b.ttl || Number(a.honorOrigin) - Number(b.honorOrigin),
    ),
    wafRulesFile: waf ? `${options.treeDir}/${WAF_RULES_FILE}` : null,
    unknownHostWaf: Boolean(waf?.unknownHost),
    errorPages: errorPages.routes,
    rateLimits: routes.some((route) => route.rate !== undefined || route.cap !== undefined),
    bandwidthCaps: routes.some((route) => route.cap !== undefined),
  };
  files.push(...errorPages.files);

  const streams: number[] = [];
  const seenStreams = new Set<number>();
  const portOwner = new Map<string, string>([
    [`tcp/${node.http_port}`, 'the node HTTP port'],
    [`tcp/${node.https_port}`, 'the node HTTPS port'],
    [`tcp/${options.controlPort}`, 'the agent control port'],
  ]);
  for (const candidate of asArray(snapshot.streams)) {
    const id = idOf(candidate);
    if (exclude.streams?.has(id)) continue;
    if (seenStreams.has(id)) {
      report('stream', id, 'the same stream id appears twice in the snapshot');
      continue;
    }
    seenStreams.add(id);
    const stream = candidate as EdgeStream;
    const problem = streamProblem(stream);
    if (problem) {
      report('stream', id, problem);
      continue;
    }
    if (!stream.enabled) continue;
    const port = `${stream.protocol}/${stream.listen_port}`;
    const owner = portOwner.get(port);
    if (owner) {
      report('stream', id, `${port} is already used by ${owner}`);
      continue;
    }
    try {
      files.push({ path: `streams/${id}.conf`, content: renderStream(stream, options.listenAddress), mode: FILE_MODE });
    } catch (error) {
      report('stream', id, refusalMessage(error));
      continue;
    }
    portOwner.set(port, `stream ${id}`);
    streams.push(id);
  }

  files.unshift({
    path: 'nginx.conf',
    content: renderMainConfig(node, options, {
      hasStreams: streams.length > 0,
      http,
      settings,
      fleetWorkers: snapshot.edge_settings !== undefined,
      routesBytes: Buffer.byteLength(routesJson.content),
    }),
    mode: FILE_MODE,
  });
  files.push({
    path: 'meta.json',
    content: `${JSON.stringify({ version, token, sites, streams, errors })}\n`,
    mode: FILE_MODE,
  });
  const cacheDir = settings.res.cache_path === '' ? options.paths.cacheDir : settings.res.cache_path;
  return { version, token, files, errors, sites, streams, cacheDir, routes: routeData };
}

/** Routing data a swap can carry without a reload; every other file must be the same bytes. */
const SWAPPABLE = new Set(['routes.json', 'meta.json']);

/** A digest of everything in a tree but its routing data: equal digests, the same nginx config. */
export function shapeOf(tree: RenderedTree): string {
  const hash = createHash('sha256');
  const files = tree.files.filter((file) => !SWAPPABLE.has(file.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const file of files) hash.update(`${file.path}\0${file.mode}\0${file.content.length}\0`).update(file.content);
  return hash.digest('hex');
}

const WAF_RULES_FILE = 'waf/rules.conf';
/** The tree's own copy of the CRS rule files, trimmed for its profiles (see renderCrsCopy). */
const WAF_CRS_DIR = 'waf/crs';

/** What a master that does not send `unknown_host` gets: the page, without the WAF. */
const NO_SITE_DEFAULT: EdgeUnknownHost = { action: 'page', waf: { mode: 'off', paranoia: 1, exclusions: [] } };

/**
 * Gives each site with the WAF on its profile number, and renders the ModSecurity rules of those
 * profiles; null when nothing uses the WAF (ModSecurity is then not even loaded). On a node without
 * ModSecurity and the CRS, such sites are served without the WAF and reported. Requests no site
 * serves are a profile of their own (`unknownHost`, 0 when they are not inspected): the admin's
 * WAF defaults, for the page only (a closed connection is never inspected).
 */
function wafOf(
  routes: SiteRoute[],
  unknownHost: EdgeUnknownHost,
  options: RenderOptions,
  report: (kind: ApplyError['kind'], id: number, error: string) => void,
): { rules: string; crs: CrsRuleFile[] | null; unknownHost: number } | null {
  const profiles = new WafProfiles();
  const { crs, wafAuditLog } = options.paths;
  for (const route of routes) {
    const settings = route.protection?.waf;
    if (!settings || settings.mode === 'off') continue;
    if (!crs || !wafAuditLog) {
      report('site', route.id, 'protection: the WAF (ModSecurity and the OWASP CRS) is not installed on this node');
      continue;
    }
    try {
      const exts = wafStaticExts(settings);
      route.waf = profiles.numberOf(settings);
      if (exts) route.waf_static = exts;
    } catch (error) {
      report('site', route.id, `protection: ${refusalMessage(error)}`);
    }
  }
  // Validated with its schema above, so numberOf cannot refuse it.
  const inspected = unknownHost.action === 'page' && crs && wafAuditLog;
  const unknownHostProfile = inspected ? profiles.numberOf(unknownHost.waf) : 0;
  if (profiles.size === 0 || !crs || !wafAuditLog) return null;
  const copy = renderCrsCopy(profiles.list(), crs);
  const rules = renderWafRules(profiles.list(), crs, wafAuditLog, copy ? `${options.treeDir}/${WAF_CRS_DIR}` : null);
  return { rules, crs: copy, unknownHost: unknownHostProfile };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function refusalMessage(error: unknown): string {
  if (error instanceof RenderRefusal) return `refused to render: ${error.message}`.slice(0, 1900);
  throw error;
}
