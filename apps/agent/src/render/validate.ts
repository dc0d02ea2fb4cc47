import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import {
  type EdgeCert,
  EdgeCert as EdgeCertSchema,
  EdgeNodeSettings,
  EdgeSettings,
  type EdgeSite,
  EdgeSite as EdgeSiteSchema,
  type EdgeStream,
  EdgeStream as EdgeStreamSchema,
  EdgeUnknownHost,
  type Origin,
} from '@rampart/contracts';
import { Compile } from 'typebox/compile';

const schemas = {
  site: EdgeSiteSchema,
  stream: EdgeStreamSchema,
  cert: EdgeCertSchema,
  node: EdgeNodeSettings,
  unknownHost: EdgeUnknownHost,
  settings: EdgeSettings,
};
const checkers = {
  site: Compile(EdgeSiteSchema),
  stream: Compile(EdgeStreamSchema),
  cert: Compile(EdgeCertSchema),
  node: Compile(EdgeNodeSettings),
  unknownHost: Compile(EdgeUnknownHost),
  settings: Compile(EdgeSettings),
};

interface SchemaError {
  instancePath: string;
  schemaPath: string;
  message: string;
}

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<SchemaError>;
}

/**
 * The first few schema violations in words, or null when `value` is valid. A field's own
 * description ("a port from 1 to 65535") reads better than its regular expression.
 */
export function schemaErrors(checker: Checker, schema: unknown, value: unknown): string | null {
  if (checker.Check(value)) return null;
  const messages = [...checker.Errors(value)].slice(0, 5).map((error) => {
    const description = (resolvePointer(schema, error.schemaPath) as { description?: unknown } | undefined)
      ?.description;
    const rule = typeof description === 'string' ? `must be ${description}` : error.message;
    return `${error.instancePath || '/'} ${rule}`;
  });
  return [...new Set(messages)].join('; ').slice(0, 1900);
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.replace(/^#\/?/, '').split('/')) {
    if (part === '' || node === null || typeof node !== 'object') continue;
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

export const nodeErrors = (value: unknown) => schemaErrors(checkers.node, schemas.node, value);
export const unknownHostErrors = (value: unknown) => schemaErrors(checkers.unknownHost, schemas.unknownHost, value);
export const edgeSettingsErrors = (value: unknown) => schemaErrors(checkers.settings, schemas.settings, value);
export const siteSchemaErrors = (value: unknown) => schemaErrors(checkers.site, schemas.site, value);
export const streamSchemaErrors = (value: unknown) => schemaErrors(checkers.stream, schemas.stream, value);
export const certSchemaErrors = (value: unknown) => schemaErrors(checkers.cert, schemas.cert, value);

export function idOf(value: unknown): number {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : 0;
}

const PEM_ONLY = /^(?:-----BEGIN [A-Z0-9 ]+-----\r?\n[A-Za-z0-9+/=\r\n]+-----END [A-Z0-9 ]+-----\s*)+$/;

/** Checks that a certificate parses, is PEM only, and that its key matches. */
export function certProblem(cert: EdgeCert): string | null {
  const schema = certSchemaErrors(cert);
  if (schema) return schema;
  if (cert.cert_pem.length > 65_536 || cert.key_pem.length > 16_384) return 'certificate or key too large';
  if (!PEM_ONLY.test(cert.cert_pem.trim()) || !PEM_ONLY.test(cert.key_pem.trim())) return 'not PEM';
  try {
    const x509 = new X509Certificate(cert.cert_pem);
    const key = createPrivateKey(cert.key_pem);
    if (!x509.checkPrivateKey(key)) return 'the private key does not match the certificate';
  } catch (error) {
    return `certificate or key does not parse: ${(error as Error).message}`;
  }
  return null;
}

/** Rules nginx enforces on an upstream that the field schemas cannot express. */
export function originsProblem(origins: Origin[], balance: string): string | null {
  const badIp = origins.find((o) => o.address.includes(':') && isIP(o.address) !== 6);
  if (badIp) return `${badIp.address} is not a valid IPv6 address`;
  if (!origins.some((o) => !o.backup)) return 'at least one origin must not be a backup';
  if (balance === 'ip_hash' && origins.some((o) => o.backup)) return 'ip_hash balancing cannot use backup origins';
  return null;
}

export function siteProblem(site: EdgeSite, certs: ReadonlyMap<number, EdgeCert>): string | null {
  const schema = siteSchemaErrors(site);
  if (schema) return schema;
  const origins = originsProblem(site.origins, site.balance);
  if (origins) return origins;
  if (site.https_listen) {
    if (site.cert_id === null) return 'HTTPS is on but no certificate is set';
    if (!certs.has(site.cert_id)) return `certificate ${site.cert_id} is missing or invalid on this node`;
  }
  return null;
}

export function streamProblem(stream: EdgeStream): string | null {
  return streamSchemaErrors(stream) ?? originsProblem(stream.origins, stream.balance);
}
