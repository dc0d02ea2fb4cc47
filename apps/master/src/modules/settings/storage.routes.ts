import { Envelope, PERMISSIONS } from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { storageBytes } from './storage.ts';

const StorageSize = Type.Object({
  dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  config_bytes: Type.Integer({ description: 'users, sites, settings and the other configuration' }),
  logs_bytes: Type.Integer({ description: 'access and stream logs, traffic rollups, node reports' }),
  clickhouse_bytes: Type.Optional(
    Type.Integer({
      description: 'when RAMPART_LOGS_URL is set: the access and stream logs and their rollups in ClickHouse',
    }),
  ),
});

/** GET /v1/system/storage (admin:sys): how much disk the two stores take, shown beside the retention settings. */
export async function storageRoutes(app: App, { db, logs, dialect, events }: AppContext) {
  app.get(
    '/v1/system/storage',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: { tags: ['system'], response: { 200: Envelope(StorageSize) } },
    },
    async () => {
      return ok({ dialect, ...(await storageBytes({ db, logs, dialect, events })) });
    },
  );
}
