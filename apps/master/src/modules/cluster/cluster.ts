import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.ts';
import type { App } from '../../http.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { announceConfigVersion, currentConfigVersion } from '../config/config-version.ts';
import { relayRunnerWakesTo, wakeRunners } from '../tasks/task-runner.ts';
import { type ClusterBus, channelFor, startClusterBus } from './bus.ts';

// A master that cannot listen yet still serves; it only hears the others later.
const LISTEN_WAIT_MS = 10_000;

/**
 * Joins this master to the others on its database (PostgreSQL): config changes they commit wake
 * the config polls held here, tasks they queue wake the task runner here, sessions they forget are
 * forgotten here, and what this master forgets
 * is told to them before the request that caused it is answered. Alone (SQLite), nothing changes.
 */
export async function joinCluster(app: App, database: DatabaseHandle, log: FastifyBaseLogger): Promise<ClusterBus> {
  if (!database.notifications) return startClusterBus(database.db, undefined, log);
  const channel = await channelFor(database.db);
  const bus = startClusterBus(database.db, { ...database.notifications, channel }, log);
  const stopRelaying = sessionCache.relayTo((forgot) => bus.relay({ kind: 'sessions', ...forgot }));
  const stopRelayingWakes = relayRunnerWakesTo(() => bus.relay({ kind: 'tasks' }));
  bus.on('tasks', () => wakeRunners(false));
  bus.on('config', (event) => announceConfigVersion(event.version));
  bus.on('sessions', (event) => {
    if (event.user !== undefined) sessionCache.forgetUser(event.user, false);
    if (event.session !== undefined) sessionCache.forgetSession(event.session, false);
  });
  bus.onResync(() => {
    sessionCache.forgetAll();
    currentConfigVersion(database.db).then(announceConfigVersion, (error: unknown) =>
      log.warn({ err: error }, 'could not read the config version after reconnecting'),
    );
  });
  // A logout (or a disabled user) answered here must already be known to the other masters.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const flushed = bus.flushed();
    if (!flushed) return done(null, payload);
    flushed.then(() => done(null, payload));
  });
  app.addHook('onReady', async () => {
    const waited = await Promise.race([
      bus.ready.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, LISTEN_WAIT_MS, false).unref()),
    ]);
    if (!waited) log.warn('not yet listening to the other masters; their changes reach this one once it does');
  });
  app.addHook('onClose', async () => {
    stopRelaying();
    stopRelayingWakes();
    await bus.close();
  });
  return bus;
}
