import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { localRequest } from '../local-http.ts';
import { errorText, type Logger } from '../logger.ts';
import { swapKey } from './applier.ts';

const run = promisify(execFile);

/**
 * OCSP stapling for certificates chosen in Lua (nginx's `ssl_stapling` covers only certificates
 * named in its config): the agent asks each certificate's responder, and posts the answer to the
 * control server, which checks it against the certificate and keeps it for the handshakes
 * (rampart/tls_ocsp.lua). A certificate without an OCSP URL or without its issuer in the chain is
 * left out.
 */
export interface OcspSource {
  url: string;
  leaf: string;
  issuer: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The responder of a chain's leaf and the issuer to ask about it; null when either is missing. */
export function ocspSource(chainPem: string): OcspSource | null {
  const [leaf, issuer] = chainPem.match(PEM_BLOCK) ?? [];
  if (!leaf || !issuer) return null;
  let access: string | undefined;
  try {
    access = new X509Certificate(leaf).infoAccess;
  } catch {
    return null;
  }
  const url = access?.match(/^OCSP - URI:(http:\/\/\S+)$/m)?.[1];
  return url ? { url, leaf: `${leaf}\n`, issuer: `${issuer}\n` } : null;
}

/** Longest a response is kept without a Next Update, and at most whatever it says. */
const DEFAULT_TTL_S = 3600;
const MAX_TTL_S = 2 * 86400;

/** The responder's answer for a good certificate (DER) and how long to staple it; null otherwise. */
export async function fetchOcsp(source: OcspSource, now = Date.now()): Promise<{ der: Buffer; ttl: number } | null> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-ocsp-'));
  try {
    const leaf = join(dir, 'leaf.pem');
    const issuer = join(dir, 'issuer.pem');
    const out = join(dir, 'response.der');
    await writeFile(leaf, source.leaf);
    await writeFile(issuer, source.issuer);
    // The response is verified by the control server against the chain before it is used.
    const { stdout } = await run(
      'openssl',
      ['ocsp', '-issuer', issuer, '-cert', leaf, '-url', source.url, '-respout', out, '-noverify', '-timeout', '10'],
      { timeout: 20_000 },
    );
    if (!/: good$/m.test(stdout)) return null;
    const next = stdout.match(/Next Update: (.+)$/m)?.[1];
    const until = next ? Date.parse(next) : Number.NaN;
    const ttl = Number.isNaN(until) ? DEFAULT_TTL_S : Math.floor((until - now) / 1000);
    if (ttl < 60) return null;
    return { der: await readFile(out), ttl: Math.min(ttl, MAX_TTL_S) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Fetches and posts a response for every certificate of the live routing data that has a responder.
 * Returns how many certificates are stapled now.
 */
export async function refreshOcsp(options: {
  routesFile: string;
  controlPort: number;
  secret: string;
  log: Logger;
}): Promise<number> {
  let certs: Record<string, { cert: string }>;
  try {
    const data = JSON.parse(await readFile(options.routesFile, 'utf8')) as { certs?: Record<string, { cert: string }> };
    certs = data.certs ?? {};
  } catch {
    return 0;
  }
  let stapled = 0;
  for (const [id, pair] of Object.entries(certs)) {
    const source = ocspSource(pair.cert);
    if (!source) continue;
    try {
      const response = await fetchOcsp(source);
      if (!response) {
        options.log.warn('no good OCSP answer for a certificate', { cert: id, responder: source.url });
        continue;
      }
      const answer = await localRequest({
        port: options.controlPort,
        path: `/ocsp?cert=${encodeURIComponent(id)}&ttl=${response.ttl}`,
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-rampart-swap-key': swapKey(options.secret) },
        body: response.der.toString('base64'),
      });
      if (answer?.status === 200) stapled++;
      else options.log.warn('nginx refused an OCSP response', { cert: id, status: answer?.status ?? null });
    } catch (error) {
      options.log.warn('OCSP fetch failed', { cert: id, responder: source.url, error: errorText(error) });
    }
  }
  return stapled;
}
