import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateTicketKeysIfDue, TICKET_KEY_BYTES, ticketKeyFiles } from '../src/apply/ticket-keys.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, nginxWorkers, type TestEdge } from './support/edge.ts';
import { eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

/** One HTTPS request on a fresh TLS 1.3 connection, offering `session`: the ticket it got, whether it resumed. */
function visit(
  port: number,
  host: string,
  session?: Buffer,
): Promise<{ session: Buffer; resumed: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    let ticket: Buffer | undefined;
    let resumed = false;
    let body = '';
    const socket = connect({
      host: '127.0.0.1',
      port,
      servername: host,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.3',
      ...(session ? { session } : {}),
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')));
    socket.on('session', (data: Buffer) => {
      ticket = data;
    });
    socket.on('secureConnect', () => {
      resumed = socket.isSessionReused();
      socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      body += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!ticket) reject(new Error('no session ticket'));
      else resolve({ session: ticket, resumed, body });
    });
  });
}

/** Reloads nginx and waits until only new workers are left. */
async function reloadAndSettle(edge: TestEdge, reload: () => Promise<unknown>): Promise<void> {
  const before = await nginxWorkers(edge);
  await reload();
  await eventually(async () => {
    const now = await nginxWorkers(edge);
    if (now.length === 0 || now.some((pid) => before.includes(pid))) throw new Error('old workers still serve');
  });
}

describe('TLS sessions', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge({ waf: false });
    origin = await startOrigin('a');
    const cert = await makeSelfSignedCert(['tickets.test']);
    const outcome = await edge.applier.apply(
      edge.snapshot({
        sites: [
          makeSite({
            id: 1,
            domains: ['tickets.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
            https_listen: true,
            cert_id: 1,
          }),
        ],
        certs: [{ id: 1, ...cert }],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it('keeps the ticket keys in the data directory, 80 bytes each, readable by their owner only', async () => {
    const files = ticketKeyFiles(edge.dataDir);
    for (const path of [files.current, files.previous]) {
      const info = await stat(path);
      expect(info.size).toBe(TICKET_KEY_BYTES);
      expect(info.mode & 0o777).toBe(0o600);
    }
    const conf = await readFile(join(edge.paths.currentLink, 'nginx.conf'), 'utf8');
    expect(conf).toContain(`ssl_session_ticket_key "${files.current}";`);
    expect(conf).toContain(`ssl_session_ticket_key "${files.previous}";`);
  });

  it('resumes a session from its ticket', async () => {
    const first = await visit(edge.ports.https, 'tickets.test');
    expect(first.resumed).toBe(false);
    expect(first.body).toMatch(/^HTTP\/1\.1 200/);
    const again = await visit(edge.ports.https, 'tickets.test', first.session);
    expect(again.resumed).toBe(true);
    expect(again.body).toMatch(/^HTTP\/1\.1 200/);
  });

  it('resumes a session after a reload: the keys are the node’s, not the reload’s', async () => {
    const first = await visit(edge.ports.https, 'tickets.test');
    await reloadAndSettle(edge, () => edge.nginx.reload());
    expect((await visit(edge.ports.https, 'tickets.test', first.session)).resumed).toBe(true);
  });

  it('resumes a ticket of the key rotated out, then gives tickets of the new key', async () => {
    const files = ticketKeyFiles(edge.dataDir);
    const old = await readFile(files.current);
    const first = await visit(edge.ports.https, 'tickets.test');
    await reloadAndSettle(edge, () => rotateTicketKeysIfDue(files, { maxAgeMs: 0, reload: () => edge.nginx.reload() }));
    expect((await readFile(files.previous)).equals(old)).toBe(true);
    const after = await visit(edge.ports.https, 'tickets.test', first.session);
    expect(after.resumed).toBe(true);
    // A second rotation drops the key that ticket was made with: a full handshake again.
    await reloadAndSettle(edge, () => rotateTicketKeysIfDue(files, { maxAgeMs: 0, reload: () => edge.nginx.reload() }));
    expect((await visit(edge.ports.https, 'tickets.test', first.session)).resumed).toBe(false);
  });
});
