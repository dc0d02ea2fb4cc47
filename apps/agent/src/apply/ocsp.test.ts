import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CERT } from '../testing/fixture-cert.ts';
import { ocspSource } from './ocsp.ts';

const run = promisify(execFile);

/** A CA and a leaf it signed with `extension` (an openssl extfile line). */
async function chain(extension: string): Promise<{ leaf: string; ca: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-ocsp-source-'));
  try {
    const at = (name: string) => join(dir, name);
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    await run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-subj',
      '/CN=CA',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
    ]);
    await run('openssl', [
      'req',
      '-new',
      ...ec,
      '-subj',
      '/CN=a.test',
      '-keyout',
      at('leaf.key'),
      '-out',
      at('leaf.csr'),
    ]);
    await writeFile(at('ext'), `${extension}\n`);
    const sign = ['-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-days', '2', '-extfile', at('ext')];
    await run('openssl', ['x509', '-req', '-in', at('leaf.csr'), ...sign, '-out', at('leaf.pem')]);
    return { leaf: await readFile(at('leaf.pem'), 'utf8'), ca: await readFile(at('ca.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('ocspSource', () => {
  it('finds the responder of the leaf and its issuer, the next certificate of the chain', async () => {
    const { leaf, ca } = await chain(
      'authorityInfoAccess=OCSP;URI:http://ocsp.example.net/x,caIssuers;URI:http://ca.example.net/ca.der',
    );
    const source = ocspSource(`${leaf}${ca}`);
    expect(source?.url).toBe('http://ocsp.example.net/x');
    expect(source?.leaf.trim()).toBe(leaf.trim());
    expect(source?.issuer.trim()).toBe(ca.trim());
  });

  it('skips a certificate without an OCSP URL', async () => {
    const { leaf, ca } = await chain('subjectAltName=DNS:a.test');
    expect(ocspSource(`${leaf}${ca}`)).toBeNull();
    expect(ocspSource(FIXTURE_CERT.cert_pem)).toBeNull();
  });

  it('skips a chain without the issuer, since the request names it', async () => {
    const { leaf } = await chain('authorityInfoAccess=OCSP;URI:http://ocsp.example.net/x');
    expect(ocspSource(leaf)).toBeNull();
  });
});
