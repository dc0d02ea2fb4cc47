import type { Kysely } from 'kysely';
import type { MasterConfig } from './config.ts';
import type { Dialect } from './db/database.ts';
import type { EventStore } from './db/events.ts';
import type { LogDatabase } from './db/logs-schema.ts';
import type { Database } from './db/schema.ts';
import type { Messenger } from './modules/messages/messenger.ts';
import type { Notifier } from './modules/messages/notifier.ts';
import type { SecretBox } from './secrets.ts';

/** What services need besides their arguments: built once in app.ts and handed to route modules. */
export interface AppContext {
  config: MasterConfig;
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  /** The access and stream logs and their rollups: in `logs`, or in ClickHouse. */
  events: EventStore;
  dialect: Dialect;
  messenger: Messenger;
  /** Tells a user something through their subscribed channels (in-app, email, SMS, webhook). */
  notifier: Notifier;
  secrets: SecretBox;
}
