import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const run = promisify(execFile);

/** A self-signed certificate for `name` whose key openssl writes with `keyCommand(path)`. */
async function certWithKey(
  name: string,
  keyCommand: (out: string) => string[],
): Promise<{ cert_pem: string; key_pem: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-tls-key-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    await run('openssl', keyCommand(key));
    const subject = ['-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`];
    await run('openssl', ['req', '-x509', '-key', key, '-days', '2', ...subject, '-out', cert]);
    return { cert_pem: await readFile(cert, 'utf8'), key_pem: await readFile(key, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The worker decodes each key as the type it guesses first, then the other, then as lua-resty-core does.
const KEYS: Record<string, (out: string) => string[]> = {
  'ec-pkcs8.test': (out) => ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', out],
  'ec-sec1.test': (out) => ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', out],
  'rsa-pkcs8.test': (out) => ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', out],
  'rsa-pkcs1.test': (out) => ['genrsa', '-traditional', '-out', out, '2048'],
};

describe('certificates chosen by SNI', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge({ waf: false });
    origin = await startOrigin('a');
    const names = Object.keys(KEYS);
    const certs = await Promise.all(names.map((name) => certWithKey(name, KEYS[name]!)));
    const outcome = await edge.applier.apply(
      edge.snapshot({
        sites: names.map((name, i) =>
          makeSite({
            id: i + 1,
            domains: [name],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
            https_listen: true,
            cert_id: i + 1,
          }),
        ),
        certs: certs.map((cert, i) => ({ id: i + 1, ...cert })),
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
  }, 60_000);

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it.each(Object.keys(KEYS))('serves %s with its own certificate and key', async (name) => {
    for (let visit = 0; visit < 2; visit++) {
      const answer = await edgeRequest(edge.ports.https, { host: name, tls: true });
      expect(answer.status).toBe(200);
      expect(answer.cert?.subject?.CN).toBe(name);
    }
    expect(await readFile(edge.paths.errorLog, 'utf8')).not.toMatch(/unusable|setting certificate/);
  });
});
