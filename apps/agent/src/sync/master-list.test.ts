import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { MasterClient } from './master-client.ts';
import { followMasters, masterListProblem, mastersFile, savedMasters, saveMasters } from './master-list.ts';

describe('the masters an agent follows', () => {
  let dataDir: string;
  const servers: Server[] = [];
  const urls: string[] = [];
  /** Master `name`: answers every call with its name. */
  const startMaster = async (name: string) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 0, msg: 'ok', data: { master: name } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const who = async (client: MasterClient) =>
    (await client.call<{ master: string }>({ method: 'GET', path: '/who' }, null)).master;

  beforeAll(async () => {
    urls.push(await startMaster('started'), await startMaster('b'), await startMaster('c'));
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rampart-masters-'));
    return () => rm(dataDir, { recursive: true, force: true });
  });

  it('replaces the list it was started with by the one a config names, and keeps it for the next start', async () => {
    const [started = '', b = '', c = ''] = urls;
    const client = new MasterClient([started]);
    expect(await who(client)).toBe('started');

    expect(await followMasters(client, dataDir, [b, c], silentLogger)).toBe(true);
    expect(client.masters).toEqual([b, c]);
    expect(await who(client)).toBe('b');
    expect((await stat(mastersFile(dataDir))).mode & 0o777).toBe(0o600);

    // A restart begins with --master again, then takes what it kept.
    const restarted = new MasterClient([started]);
    const kept = await savedMasters(dataDir);
    expect(kept).toEqual([b, c]);
    restarted.useMasters(kept ?? []);
    expect(await who(restarted)).toBe('b');

    // The same list again changes nothing; an empty one (or none) leaves the list as it is.
    expect(await followMasters(restarted, dataDir, [b, c], silentLogger)).toBe(false);
    expect(await followMasters(restarted, dataDir, [], silentLogger)).toBe(false);
    expect(await followMasters(restarted, dataDir, undefined, silentLogger)).toBe(false);
    expect(restarted.masters).toEqual([b, c]);
    expect(await savedMasters(dataDir)).toEqual([b, c]);
  });

  it('keeps its list when a config names masters it cannot use', async () => {
    const client = new MasterClient(['https://a.test']);
    const warnings: unknown[] = [];
    const log = { ...silentLogger, warn: (_message: string, fields?: unknown) => warnings.push(fields) };
    expect(await followMasters(client, dataDir, ['https://b.test', 'ftp://c.test'], log)).toBe(false);
    expect(await followMasters(client, dataDir, ['https://b.test', 'https://B.test'], log)).toBe(false);
    expect(await followMasters(client, dataDir, ['https://b.test', 7] as unknown as string[], log)).toBe(false);
    expect(await followMasters(client, dataDir, { length: 1 } as unknown as string[], log)).toBe(false);
    expect(client.masters).toEqual(['https://a.test']);
    expect(await savedMasters(dataDir)).toBeNull();
    expect(warnings).toHaveLength(3);
  });

  it('reads the single address agents kept before lists, and ignores a file it cannot use', async () => {
    await writeFile(mastersFile(dataDir), JSON.stringify({ master: 'https://moved.test:8443/' }));
    expect(await savedMasters(dataDir)).toEqual(['https://moved.test:8443']);
    await writeFile(mastersFile(dataDir), JSON.stringify({ masters: ['https://a.test', 7] }));
    expect(await savedMasters(dataDir)).toBeNull();
    await writeFile(mastersFile(dataDir), JSON.stringify({ masters: [] }));
    expect(await savedMasters(dataDir)).toBeNull();
    await saveMasters(dataDir, ['https://a.test', 'https://b.test']);
    expect(await savedMasters(dataDir)).toEqual(['https://a.test', 'https://b.test']);
  });

  it('names the rule a list breaks', () => {
    expect(masterListProblem(['https://a.test', 'http://[2001:db8::1]:8080'])).toBeNull();
    expect(masterListProblem([])).toBe('must name at least one master');
    expect(masterListProblem(['https://a.test', ' '])).toContain('(" " is not one)');
    expect(masterListProblem(['https://a.test/x', 'https://A.TEST/x/'])).toBe(
      'must name each master once (https://A.TEST/x/ is there twice)',
    );
    expect(masterListProblem(Array.from({ length: 17 }, (_, i) => `https://m${i}.test`))).toBe(
      'must name at most 16 masters',
    );
  });
});
