import { sql } from 'kysely';
import type pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { type ClusterBus, type ClusterEvent, channelFor, clusterBus, startClusterBus } from './bus.ts';

const log = pino({ level: 'silent' });
const postgres = DIALECTS.find((target) => target.dialect === 'postgres');
const WAIT = { timeout: 15_000, interval: 20 };

describe.runIf(postgres)('the cluster bus on PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two masters' handles on one schema, each with its bus. */
  async function twoMasters(): Promise<{ database: TestDatabase; buses: [ClusterBus, ClusterBus] }> {
    if (!postgres?.url) throw new Error('no PostgreSQL');
    const database = await createTestDatabase(postgres, { migrated: true });
    cleanups.push(() => database.dispose());
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
      ?.schema;
    const channel = await channelFor(database.db);
    const source = (handle: { notifications?: { connect(): pg.Client } }) =>
      handle.notifications && { ...handle.notifications, channel };
    const second = openDatabase({ dataDir: database.dataDir, url: postgres.url, schema });
    cleanups.push(() => second.close());
    const first = startClusterBus(database.db, source(database), log);
    const other = startClusterBus(second.db, source(second), log);
    cleanups.push(
      () => first.close(),
      () => other.close(),
    );
    await Promise.all([first.ready, other.ready]);
    return { database, buses: [first, other] };
  }

  it('carries a relayed event to the other master, not back to its sender', async () => {
    const { database, buses } = await twoMasters();
    const [first, second] = buses;
    const heardByFirst: ClusterEvent[] = [];
    const heardBySecond: ClusterEvent[] = [];
    first.on('config', (event) => heardByFirst.push(event));
    second.on('config', (event) => heardBySecond.push(event));
    second.on('sessions', (event) => heardBySecond.push(event));
    expect(clusterBus(database.db)).toBe(first);

    first.relay({ kind: 'config', version: 42 });
    first.relay({ kind: 'sessions', user: 7 });
    await first.flushed();
    await vi.waitFor(() => expect(heardBySecond).toHaveLength(2), WAIT);
    expect(heardBySecond).toEqual([
      { kind: 'config', version: 42 },
      { kind: 'sessions', user: 7 },
    ]);
    expect(heardByFirst).toEqual([]);
  });

  it('slices a long node list under the notification size limit and delivers every node', async () => {
    const { buses } = await twoMasters();
    const [first, second] = buses;
    const woken: number[] = [];
    second.on('commands', (event) => woken.push(...event.nodes));
    const nodes = Array.from({ length: 3000 }, (_, index) => 100_000 + index);
    first.relay({ kind: 'commands', nodes });
    await first.flushed();
    await vi.waitFor(() => expect(woken).toHaveLength(nodes.length), WAIT);
    expect(woken.sort((a, b) => a - b)).toEqual(nodes);
  });

  it('listens again after its connection is cut, and tells its listeners to catch up', async () => {
    const { database, buses } = await twoMasters();
    const [first, second] = buses;
    let resyncs = 0;
    second.onResync(() => resyncs++);
    const heard: ClusterEvent[] = [];
    second.on('config', (event) => heard.push(event));
    // The database ends both LISTEN connections of this schema's channel.
    const listen = `LISTEN "${await channelFor(database.db)}"`;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where pid <> pg_backend_pid() and query = ${listen} and datname = current_database()`.execute(database.db);
    await vi.waitFor(() => expect(resyncs).toBeGreaterThanOrEqual(1), WAIT);
    // Relays made once both listen again arrive.
    await vi.waitFor(async () => {
      first.relay({ kind: 'config', version: 9 });
      await first.flushed();
      expect(heard.length).toBeGreaterThan(0);
    }, WAIT);
    expect(heard[0]).toEqual({ kind: 'config', version: 9 });
  });
});

describe('the cluster bus on SQLite', () => {
  it('relays nothing: one master serves a SQLite database', async () => {
    const database = await createTestDatabase({ dialect: 'sqlite' }, { migrated: true });
    try {
      const bus = startClusterBus(database.db, undefined, log);
      expect(database.notifications).toBeUndefined();
      bus.relay({ kind: 'config', version: 1 });
      expect(bus.flushed()).toBeNull();
      await bus.close();
    } finally {
      await database.dispose();
    }
  });
});
