import type { ApplyError, EdgeCert, EdgeSite, EdgeSnapshot, EdgeStream } from '@rampart/contracts';
import { renderMainConfig, versionToken } from './nginx-conf.ts';
import { RenderRefusal } from './quote.ts';
import { renderSite } from './site.ts';
import { renderStream } from './stream.ts';
import type { RenderedFile, RenderOptions } from './types.ts';
import { certProblem, idOf, nodeErrors, siteProblem, streamProblem } from './validate.ts';

export interface RenderedTree {
  version: number;
  /** What the control server's /version answers once this tree is live. */
  token: string;
  files: RenderedFile[];
  errors: ApplyError[];
  sites: number[];
  streams: number[];
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
  const seenSites = new Set<number>();
  const usedCerts = new Set<number>();
  const domainOwner = new Map<string, number>();
  const siteContext = { node, listenAddress: options.listenAddress };
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
    const cert = site.https_listen && site.cert_id !== null ? certFiles(site.cert_id) : null;
    try {
      const content = renderSite({ ...site, domains }, { ...siteContext, cert });
      files.push({ path: `sites/${id}.conf`, content, mode: FILE_MODE });
    } catch (error) {
      report('site', id, refusalMessage(error));
      continue;
    }
    for (const domain of domains) domainOwner.set(domain, id);
    if (site.https_listen && site.cert_id !== null) usedCerts.add(site.cert_id);
    sites.push(id);
  }

  for (const id of usedCerts) {
    const cert = certs.get(id)!;
    const paths = certFiles(id);
    files.push({ path: paths.certPath, content: ensureNewline(cert.cert_pem), mode: SECRET_MODE });
    files.push({ path: paths.keyPath, content: ensureNewline(cert.key_pem), mode: SECRET_MODE });
  }

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

  const token = versionToken(version, options.applyId);
  files.unshift({
    path: 'nginx.conf',
    content: renderMainConfig(version, node, options, streams.length > 0),
    mode: FILE_MODE,
  });
  files.push({
    path: 'meta.json',
    content: `${JSON.stringify({ version, token, sites, streams, errors })}\n`,
    mode: FILE_MODE,
  });
  return { version, token, files, errors, sites, streams };
}

export function certFiles(certId: number): { certPath: string; keyPath: string } {
  return { certPath: `certs/${certId}.pem`, keyPath: `certs/${certId}.key` };
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
