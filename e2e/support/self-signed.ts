import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A self-signed P-256 certificate and key for `domain`, made by openssl (no shell), valid 20 days. */
export const selfSigned = async (domain: string): Promise<{ cert: string; key: string }> => {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-cert-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    // biome-ignore format: one option and its value a line
    await run('openssl', [
      'req', '-x509',
      '-newkey', 'ec',
      '-pkeyopt', 'ec_paramgen_curve:P-256',
      '-nodes',
      '-days', '20',
      '-keyout', key,
      '-out', cert,
      '-subj', `/CN=${domain}`,
      '-addext', `subjectAltName=DNS:${domain}`,
    ]);
    return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
