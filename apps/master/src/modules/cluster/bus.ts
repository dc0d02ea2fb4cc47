import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { NotificationSource } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** What one master tells the others sharing its database. */
export type ClusterEvent =
  /** A config change committed: held config polls wake. */
  | { kind: 'config'; version: number }
  /** Cached sessions of a user (or one session) are stale: forget them. */
  | { kind: 'sessions'; user?: number; session?: number }
  /** Nodes were given commands: their held command polls wake. */
  | { kind: 'commands'; nodes: number[] }
  /** Durable tasks were queued: runners look now instead of at their next poll. */
  | { kind: 'tasks' };

type Kind = ClusterEvent['kind'];
type EventOf<K extends Kind> = Extract<ClusterEvent, { kind: K }>;
type Handler = (event: ClusterEvent) => void;

/**
 * The masters' wake-ups and cache invalidations, relayed through PostgreSQL LISTEN/NOTIFY. A
 * master acts on its own events at once (the callers do, before relaying): the bus carries them to
 * the others only. On SQLite there is one master and the bus carries nothing.
 */
export interface ClusterBus {
  /** Sends the event to the other masters (after the change it reports has committed). */
  relay(event: ClusterEvent): void;
  /** Hears what the other masters relay; answers how to stop hearing it. */
  on<K extends Kind>(kind: K, handler: (event: EventOf<K>) => void): () => void;
  /**
   * Called when the connection that hears the others came back after a loss: what they said
   * meanwhile is lost, so each listener catches up (reads the config version, forgets every session).
   */
  onResync(handler: () => void): () => void;
  /** Settles when every relay sent so far has reached the database (a request answers after it). */
  flushed(): Promise<void> | null;
  /** Resolves once the master listens (or at once on SQLite). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

// NOTIFY payloads are limited to 8000 bytes: node lists are sent in slices well under that.
const NODES_PER_NOTICE = 800;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

const buses = new WeakMap<Kysely<Database>, ClusterBus>();

function handlerSet() {
  const handlers = new Map<Kind, Set<Handler>>();
  const resyncs = new Set<() => void>();
  return {
    on<K extends Kind>(kind: K, handler: (event: EventOf<K>) => void) {
      let set = handlers.get(kind);
      if (!set) {
        set = new Set();
        handlers.set(kind, set);
      }
      const entry = handler as Handler;
      set.add(entry);
      return () => void set.delete(entry);
    },
    onResync(handler: () => void) {
      resyncs.add(handler);
      return () => void resyncs.delete(handler);
    },
    dispatch(event: ClusterEvent, log: FastifyBaseLogger) {
      for (const handler of handlers.get(event.kind) ?? []) {
        try {
          handler(event);
        } catch (error) {
          log.error({ err: error, event: event.kind }, 'a relayed event was not handled');
        }
      }
    },
    resync(log: FastifyBaseLogger) {
      for (const handler of resyncs) {
        try {
          handler();
        } catch (error) {
          log.error({ err: error }, 'catching up after the notification connection came back failed');
        }
      }
    },
  };
}

/** The bus of the master working on `db`; a master alone on its database relays nothing. */
export const clusterBus = (db: Kysely<Database>): ClusterBus => buses.get(db) ?? LOCAL_BUS;

const LOCAL_BUS: ClusterBus = {
  relay() {},
  on: () => () => undefined,
  onResync: () => () => undefined,
  flushed: () => null,
  ready: Promise.resolve(),
  close: async () => undefined,
};

function slices(event: ClusterEvent): ClusterEvent[] {
  if (event.kind !== 'commands' || event.nodes.length <= NODES_PER_NOTICE) return [event];
  const parts: ClusterEvent[] = [];
  for (let at = 0; at < event.nodes.length; at += NODES_PER_NOTICE) {
    parts.push({ kind: 'commands', nodes: event.nodes.slice(at, at + NODES_PER_NOTICE) });
  }
  return parts;
}

function parseNotice(payload: string | undefined): { from: string; event: ClusterEvent } | null {
  if (!payload) return null;
  try {
    const notice = JSON.parse(payload) as { from?: unknown; event?: { kind?: unknown } };
    if (typeof notice.from !== 'string' || typeof notice.event?.kind !== 'string') return null;
    return notice as { from: string; event: ClusterEvent };
  } catch {
    return null;
  }
}

/**
 * The channel of the masters sharing `db`'s schema: channels are database-wide, and two Rampart
 * installations may share one database in two schemas.
 */
export async function channelFor(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = (rows[0]?.schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `rampart_${schema}`.slice(0, 63);
}

/**
 * Starts the bus of a master on `db`: on PostgreSQL a connection of its own LISTENs on the
 * schema's channel (reconnecting with backoff; on each return the listeners resync), and relays
 * go out with pg_notify through the pool. Registered for `db`, so `clusterBus(db)` finds it.
 */
export function startClusterBus(
  db: Kysely<Database>,
  source: (NotificationSource & { channel: string }) | undefined,
  log: FastifyBaseLogger,
): ClusterBus {
  if (!source) return LOCAL_BUS;
  const self = randomUUID();
  const handlers = handlerSet();
  const pending = new Set<Promise<void>>();
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let connectedOnce = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== source.channel) return;
    const notice = parseNotice(message.payload);
    if (!notice || notice.from === self) return;
    handlers.dispatch(notice.event, log);
  };

  const connect = async () => {
    if (stopped) return;
    const next = source.connect();
    let gone = false;
    const lost = (error?: Error) => {
      if (gone) return;
      gone = true;
      next.removeAllListeners('notification');
      if (client === next) client = null;
      next.end().catch(() => undefined);
      if (stopped) return;
      if (error) log.warn({ err: error }, 'lost the connection that hears the other masters; reconnecting');
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
    };
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', onNotification);
    try {
      await next.connect();
      await next.query(`LISTEN "${source.channel}"`);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = RECONNECT_MIN_MS;
    if (connectedOnce) handlers.resync(log);
    connectedOnce = true;
    markReady();
  };
  void connect();

  const bus: ClusterBus = {
    relay(event) {
      if (stopped) return;
      for (const part of slices(event)) {
        const payload = JSON.stringify({ from: self, event: part });
        const sent: Promise<void> = sql`select pg_notify(${source.channel}, ${payload})`
          .execute(db)
          .then(
            () => undefined,
            (error: unknown) => log.warn({ err: error, event: part.kind }, 'could not tell the other masters'),
          )
          .finally(() => pending.delete(sent));
        pending.add(sent);
      }
    },
    on: handlers.on,
    onResync: handlers.onResync,
    flushed: () => (pending.size === 0 ? null : Promise.all([...pending]).then(() => undefined)),
    ready,
    async close() {
      stopped = true;
      clearTimeout(retryTimer);
      buses.delete(db);
      await Promise.all([...pending]);
      const open = client;
      client = null;
      if (open) {
        open.removeAllListeners();
        open.on('error', () => undefined);
        await open.end().catch(() => undefined);
      }
      markReady();
    },
  };
  buses.set(db, bus);
  return bus;
}
