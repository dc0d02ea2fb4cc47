import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { freePort } from './free-port.ts';

const SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';
export const PDNS_SERVER = '/usr/sbin/pdns_server';

/** Where a running PowerDNS answers: what a test needs to reach it (and what a shared one hands over). */
export interface PowerDnsAddress {
  apiUrl: string;
  apiKey: string;
  /** host:port of its DNS service, for a resolver */
  dnsAddress: string;
}

export interface PowerDns extends PowerDnsAddress {
  /** Creates a native zone through the API. */
  createZone(zone: string): Promise<void>;
  /** Replaces one record set (contents in zone-file syntax: TXT quoted, names with a final dot). */
  setRecords(zone: string, name: string, type: string, contents: string[], ttl?: number): Promise<void>;
  /** Deletes the zones this client created. */
  deleteZones(): Promise<void>;
  close(): Promise<void>;
}

/** A real PowerDNS authoritative server (Debian's pdns-server, SQLite backend) on loopback with its HTTP API. */
export async function launchPowerDns(): Promise<PowerDns> {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-pdns-'));
  const database = join(dir, 'pdns.sqlite3');
  const sqlite = new SqliteDatabase(database);
  sqlite.exec(readFileSync(SCHEMA, 'utf8'));
  sqlite.close();
  const [dnsPort, apiPort] = [await freePort(), await freePort()];
  const apiKey = 'rampart-test-pdns-key';
  writeFileSync(
    join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${database}`,
      'local-address=127.0.0.1',
      `local-port=${dnsPort}`,
      'api=yes',
      `api-key=${apiKey}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      `socket-dir=${dir}`,
      'guardian=no',
      'daemon=no',
      'disable-syslog=yes',
      'write-pid=no',
      'loglevel=3',
      // Answers change within a test (ACME TXT records): no caching of answers or misses.
      'cache-ttl=0',
      'negquery-cache-ttl=0',
      'query-cache-ttl=0',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(PDNS_SERVER, [`--config-dir=${dir}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const api = powerDnsApi(apiUrl, apiKey);
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pdns_server exited: ${output}`);
    const ready = await api('/zones').then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`pdns_server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return powerDnsClient({ apiUrl, apiKey, dnsAddress: `127.0.0.1:${dnsPort}` }, async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
}

const powerDnsApi =
  (apiUrl: string, apiKey: string) =>
  (path: string, init: RequestInit = {}) =>
    fetch(`${apiUrl}/api/v1/servers/localhost${path}`, {
      ...init,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    });

/**
 * One shared PowerDNS serves every test file of a run, and its SQLite backend answers 500 when a
 * write waits on another file's write for longer than its lock timeout (seen on a busy machine,
 * deleting a zone). Such an answer is tried again, at most five times, a little later each time;
 * any other answer is final.
 */
const ATTEMPTS = 5;
const retried =
  (api: ReturnType<typeof powerDnsApi>) =>
  async (path: string, init: RequestInit = {}): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const response = await api(path, init);
      if (response.status < 500 || attempt === ATTEMPTS) return response;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  };

/** Zone and record calls on a running PowerDNS; `close` is what ends this test file's use of it. */
export function powerDnsClient(address: PowerDnsAddress, close: (zones: readonly string[]) => Promise<void>): PowerDns {
  const api = retried(powerDnsApi(address.apiUrl, address.apiKey));
  const zones: string[] = [];
  return {
    ...address,
    async createZone(zone) {
      const response = await api('/zones', {
        method: 'POST',
        body: JSON.stringify({ name: `${zone}.`, kind: 'Native', nameservers: [`ns1.${zone}.`] }),
      });
      if (!response.ok) throw new Error(`zone ${zone}: ${response.status} ${await response.text()}`);
      zones.push(zone);
    },
    async setRecords(zone, name, type, contents, ttl = 60) {
      const response = await api(`/zones/${zone}.`, {
        method: 'PATCH',
        body: JSON.stringify({
          rrsets: [
            {
              name: `${name}.`,
              type,
              ttl,
              changetype: 'REPLACE',
              records: contents.map((content) => ({ content, disabled: false })),
            },
          ],
        }),
      });
      if (!response.ok) throw new Error(`${name} ${type}: ${response.status} ${await response.text()}`);
    },
    async deleteZones() {
      for (const zone of zones.splice(0)) {
        const response = await api(`/zones/${zone}.`, { method: 'DELETE' });
        if (!response.ok && response.status !== 404) {
          throw new Error(`delete zone ${zone}: ${response.status} ${await response.text()}`);
        }
      }
    },
    close: () => close(zones),
  };
}
