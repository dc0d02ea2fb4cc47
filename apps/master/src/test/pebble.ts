import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCert, type TestCert } from './certs.ts';
import { freePort } from './free-port.ts';

const PEBBLE = '/usr/bin/pebble';

export interface Pebble {
  /** The ACME directory URL (HTTPS, on 127.0.0.1). */
  directoryUrl: string;
  /** PEM file of the CA that signed pebble's own HTTPS certificate: hand it to the master. */
  caFile: string;
  /** The root that signs the certificates pebble issues (made anew at each start). */
  issuingRoot(): Promise<string>;
  close(): Promise<void>;
}

export { freePort };

// One CA per test process signs every pebble's HTTPS certificate, so the master trusts them all.
let testCa: TestCert | undefined;

/** GET over HTTPS trusting only `ca`. */
const fetchText = (url: string, ca: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = get(url, { ca, timeout: 5000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });

/**
 * Let's Encrypt's ACME test server (Debian's pebble) on loopback: its HTTPS certificate from a CA
 * made here, validation without random sleeps, no nonces rejected on purpose. `dnsServer` is where
 * it looks names up (host:port); `httpPort` is where it sends HTTP-01 requests (an edge's HTTP port).
 */
export async function startPebble(options: { dnsServer: string; httpPort?: number }): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-pebble-'));
  const file = (name: string) => join(dir, name);
  testCa ??= makeCert(['Rampart Pebble Test CA'], { ca: true });
  const ca = testCa;
  const tls = makeCert(['127.0.0.1', 'localhost'], { issuer: ca });
  writeFileSync(file('ca.pem'), ca.cert);
  writeFileSync(file('cert.pem'), tls.cert);
  writeFileSync(file('key.pem'), tls.key);
  const [port, managementPort, httpPort, tlsPort] = [
    await freePort(),
    await freePort(),
    options.httpPort ?? (await freePort()),
    await freePort(),
  ];
  writeFileSync(
    file('pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: file('cert.pem'),
        privateKey: file('key.pem'),
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn(PEBBLE, ['-config', file('pebble.json'), '-dnsserver', options.dnsServer], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pebble exited: ${output}`);
    const ready = await fetchText(directoryUrl, ca.cert).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`pebble did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    directoryUrl,
    caFile: file('ca.pem'),
    issuingRoot: async () => (await fetchText(`https://127.0.0.1:${managementPort}/roots/0`, ca.cert)).body,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
