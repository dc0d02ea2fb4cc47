import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swapKey } from '../src/apply/applier.ts';
import { refreshOcsp } from '../src/apply/ocsp.ts';
import { readOrCreateKey } from '../src/fs-atomic.ts';
import { localRequest } from '../src/local-http.ts';
import { silentLogger } from '../src/logger.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const run = promisify(execFile);

/** A CA, a leaf for stapled.test naming a responder on 127.0.0.1:`port`, and that responder's index. */
async function makeChain(dir: string, port: number): Promise<{ chain: string; key: string }> {
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-days',
    '2',
    '-subj',
    '/CN=Test CA',
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
    '/CN=stapled.test',
    '-keyout',
    at('leaf.key'),
    '-out',
    at('leaf.csr'),
  ]);
  await writeFile(
    at('leaf.ext'),
    `subjectAltName=DNS:stapled.test\nauthorityInfoAccess=OCSP;URI:http://127.0.0.1:${port}\n`,
  );
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    at('leaf.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-set_serial',
    '0x1001',
    '-days',
    '2',
    '-extfile',
    at('leaf.ext'),
    '-out',
    at('leaf.pem'),
  ]);
  await writeFile(at('index.txt'), 'V\t491231235959Z\t\t1001\tunknown\t/CN=stapled.test\n');
  const chain = `${await readFile(at('leaf.pem'), 'utf8')}${await readFile(at('ca.pem'), 'utf8')}`;
  return { chain, key: await readFile(at('leaf.key'), 'utf8') };
}

/** The OCSP response the edge staples for `host`, or null when it staples none. */
function stapled(port: number, host: string): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let response: Buffer | null = null;
    const socket = connect({ host: '127.0.0.1', port, servername: host, rejectUnauthorized: false, requestOCSP: true });
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')));
    socket.on('OCSPResponse', (data: Buffer) => {
      response = data;
    });
    socket.on('secureConnect', () => socket.end());
    socket.on('error', reject);
    socket.on('close', () => resolve(response));
  });
}

describe('OCSP stapling', () => {
  let edge: TestEdge;
  let origin: Origin;
  let responder: ChildProcess;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-ocsp-test-'));
    const port = await freePort();
    const { chain, key } = await makeChain(dir, port);
    responder = spawn(
      'openssl',
      ['ocsp', '-index', join(dir, 'index.txt'), '-port', String(port), '-rsigner', join(dir, 'ca.pem')].concat([
        '-rkey',
        join(dir, 'ca.key'),
        '-CA',
        join(dir, 'ca.pem'),
        '-nmin',
        '60',
        '-nrequest',
        '20',
        '-timeout',
        '5',
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // It says so once it listens (a probe connection would hold up its one-at-a-time loop).
    await new Promise<void>((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => reject(new Error(`the OCSP responder did not start: ${said}`)), 10_000);
      responder.stderr?.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('waiting for OCSP client connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    edge = await createEdge({ waf: false });
    origin = await startOrigin('a');
    const plain = await makeSelfSignedCert(['plain.test']);
    const origins = [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }];
    const outcome = await edge.applier.apply(
      edge.snapshot({
        sites: [
          makeSite({ id: 1, domains: ['stapled.test'], origins, https_listen: true, cert_id: 1 }),
          makeSite({ id: 2, domains: ['plain.test'], origins, https_listen: true, cert_id: 2 }),
        ],
        certs: [
          { id: 1, cert_pem: chain, key_pem: key },
          { id: 2, ...plain },
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
  });

  afterAll(async () => {
    responder?.kill();
    await edge?.close();
    await origin?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('staples the responder’s answer to handshakes of a certificate that names one, and skips the others', async () => {
    expect(await stapled(edge.ports.https, 'stapled.test')).toBeNull();
    const count = await refreshOcsp({
      routesFile: join(edge.paths.currentLink, 'routes.json'),
      controlPort: edge.ports.control,
      secret: await readOrCreateKey(edge.paths.challengeKeyFile),
      log: silentLogger,
    });
    expect(count).toBe(1);
    const response = await stapled(edge.ports.https, 'stapled.test');
    expect(response).not.toBeNull();
    await writeFile(join(dir, 'stapled.der'), response!);
    const { stdout } = await run('openssl', ['ocsp', '-respin', join(dir, 'stapled.der'), '-resp_text', '-noverify']);
    expect(stdout).toContain('Cert Status: good');
    expect(await stapled(edge.ports.https, 'plain.test')).toBeNull();
  });

  it('refuses a response that is not the certificate’s, and a caller without the node’s key', async () => {
    const secret = await readOrCreateKey(edge.paths.challengeKeyFile);
    const post = (key: string, body: string) =>
      localRequest({
        port: edge.ports.control,
        path: '/ocsp?cert=2&ttl=3600',
        method: 'POST',
        headers: { 'x-rampart-swap-key': key },
        body,
      });
    const response = (await readFile(join(dir, 'stapled.der'))).toString('base64');
    // Certificate 2 is self-signed: the response about certificate 1 does not validate for it.
    expect((await post(swapKey(secret), response))?.status).toBe(422);
    expect((await post('wrong', response))?.status).toBe(403);
    expect(await stapled(edge.ports.https, 'plain.test')).toBeNull();
  });
});
