import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway self-signed certificate for `names` (the first is the subject), made with openssl. */
export async function makeSelfSignedCert(names: string[]): Promise<{ cert_pem: string; key_pem: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-cert-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    const san = names.map((name) => `DNS:${name}`).join(',');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${san}`,
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ]);
    return { cert_pem: await readFile(certPath, 'utf8'), key_pem: await readFile(keyPath, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
