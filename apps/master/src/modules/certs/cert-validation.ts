import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { AppError } from '../../errors.ts';

export interface ParsedCert {
  names: string[];
  issuer: string;
  notBefore: number;
  notAfter: number;
  /** Leaf then chain, normalized PEM. */
  certPem: string;
  keyPem: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const fail = (field: 'cert' | 'key', rule: string) => new AppError('invalid_param', `${field}: ${rule}`);

function dnsNames(cert: X509Certificate): string[] {
  const san = (cert.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  if (san.length > 0) return [...new Set(san)];
  const cn = cert.subject.match(/(?:^|\n)CN=([^\n]+)/)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

/**
 * Checks an uploaded certificate: parseable PEM, the key matches the leaf, each chain certificate
 * issued the one before it (leaf first), not expired, and at least one DNS name.
 */
export function parseCertificate(certText: string, keyText: string, now = Date.now()): ParsedCert {
  const blocks = certText.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw fail('cert', 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)');
  let chain: X509Certificate[];
  try {
    chain = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw fail('cert', 'a PEM certificate block could not be read');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch {
    throw fail('key', 'must be an unencrypted PEM private key');
  }
  const [leaf] = chain;
  if (!leaf) throw fail('cert', 'must hold at least one PEM certificate');
  if (!leaf.checkPrivateKey(key)) throw fail('key', 'does not belong to the first certificate');
  for (let i = 1; i < chain.length; i++) {
    const child = chain[i - 1] as X509Certificate;
    const parent = chain[i] as X509Certificate;
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) {
      throw fail('cert', `certificate ${i + 1} did not issue certificate ${i}: put the leaf first, then each issuer`);
    }
  }
  const notBefore = Date.parse(leaf.validFrom);
  const notAfter = Date.parse(leaf.validTo);
  if (notAfter <= now) throw fail('cert', `expired on ${new Date(notAfter).toISOString()}`);
  const names = dnsNames(leaf);
  if (names.length === 0) throw fail('cert', 'names no DNS name (subjectAltName or CN)');
  return {
    names,
    issuer: leaf.issuer.replace(/\n/g, ', '),
    notBefore,
    notAfter,
    certPem: `${blocks.join('\n')}\n`,
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Whether a certificate name (possibly `*.example.com`) covers a domain (possibly a wildcard too). */
export function certCovers(names: readonly string[], domain: string): boolean {
  return names.some((name) => {
    if (name === domain) return true;
    if (!name.startsWith('*.')) return false;
    const suffix = name.slice(1); // .example.com
    const rest = domain.startsWith('*.') ? domain.slice(2) : domain.slice(domain.indexOf('.') + 1);
    return `.${rest}` === suffix && !domain.slice(0, domain.length - suffix.length).includes('.');
  });
}
