import {
  Envelope,
  ListResult,
  LoginLogEntry,
  LoginLogQuery,
  OP_LOG_EXPORT_MAX,
  OpLogEntry,
  OpLogExportQuery,
  OpLogQuery,
  PERMISSIONS,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { type Owner, ownerOf } from '../tenancy.ts';
import { accountKey, findUserByAccount } from '../users/users.repository.ts';
import { listLoginAttempts } from './login-logs.repository.ts';
import { opLogCsv } from './op-log-csv.ts';
import { targetNames } from './op-log-names.ts';
import { eachOpLog, listOpLogs, type OpLogFilter, type OpLogRow } from './op-logs.repository.ts';

const tags = ['logs'];

/** ISO 8601 or Unix seconds, as milliseconds. */
function timeMs(field: string, text: string | undefined) {
  if (text === undefined) return undefined;
  const ms = /^[0-9]+$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (Number.isNaN(ms)) throw invalidParam(field, `${text} is not a time`);
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The filter of GET /v1/log/op and its export: a user's own entries, an admin's choice of everyone's. */
async function opLogFilter(db: Kysely<Database>, owner: Owner, query: OpLogExportQuery): Promise<OpLogFilter> {
  const { user, impersonator, action, target, ip, from, to } = query;
  const filter: OpLogFilter = {
    action,
    target,
    ip,
    fromMs: timeMs('querystring/from', from),
    toMs: timeMs('querystring/to', to),
    userId: owner.userId,
  };
  if (owner.kind === 'admin') {
    // An account that does not exist matches nothing (-1), rather than being ignored.
    filter.userId = user ? ((await findUserByAccount(db, user))?.id ?? -1) : undefined;
    if (impersonator) filter.impersonatorId = (await findUserByAccount(db, impersonator))?.id ?? -1;
  } else if (impersonator) {
    filter.impersonatorId = (await findUserByAccount(db, impersonator))?.id ?? -1;
  }
  return filter;
}

export const presentOpLog = (row: OpLogRow): OpLogEntry => ({
  id: row.id,
  user_id: row.user_id,
  account: row.account,
  impersonator_id: row.impersonator_id,
  impersonator_account: row.impersonator_account,
  auth_method: row.auth_method === 'key' ? ('key' as const) : ('session' as const),
  api_key_id: row.api_key_id,
  method: row.method,
  route: row.route,
  action: row.action,
  target_ids: row.target_ids.split(',').filter(Boolean),
  // The ids as text until targetNames (op-log-names.ts) resolves them for a page.
  target_names: row.target_ids.split(',').filter(Boolean),
  changes: JSON.parse(row.changes) as unknown,
  ip: row.ip,
  user_agent: row.user_agent,
  result: row.result,
  created_at: iso(Number(row.created_at)),
});

/**
 * The operation and sign-in logs: everyone reads their own (/account/log); an administrator holding
 * admin:sys reads everyone's (/sys/log), as the routes' policy scopes them.
 */
export async function logRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/log/op',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminSys) },
      schema: { tags, querystring: OpLogQuery, response: { 200: Envelope(ListResult(OpLogEntry)) } },
    },
    async (request) => {
      const { page = 1, limit = 20 } = request.query;
      const { rows, total } = await listOpLogs(db, await opLogFilter(db, ownerOf(request), request.query), page, limit);
      const list = rows.map(presentOpLog);
      const names = await targetNames(db, list);
      return ok({ total, list: list.map((entry, index) => ({ ...entry, target_names: names[index] ?? [] })) });
    },
  );

  app.get(
    '/v1/log/op/export',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminSys) },
      schema: {
        tags,
        querystring: OpLogExportQuery,
        description: `The entries GET /v1/log/op finds with the same filters, newest first, as a CSV file (text/csv; at most ${OP_LOG_EXPORT_MAX} rows)`,
      },
    },
    async (request, reply) => {
      const filter = await opLogFilter(db, ownerOf(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="operation-log-${day}.csv"`)
        .send(opLogCsv(eachOpLog(db, filter, OP_LOG_EXPORT_MAX), presentOpLog));
    },
  );

  app.get(
    '/v1/log/login',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminSys) },
      schema: { tags, querystring: LoginLogQuery, response: { 200: Envelope(ListResult(LoginLogEntry)) } },
    },
    async (request) => {
      const { page = 1, limit = 20, account, ip, result, from, to } = request.query;
      const owner = ownerOf(request);
      const all = owner.kind === 'admin';
      const filter = {
        userId: all ? undefined : owner.userId,
        accountKey: all && account ? accountKey(account) : undefined,
        ip,
        result,
        fromMs: timeMs('querystring/from', from),
        toMs: timeMs('querystring/to', to),
      };
      const { rows, total } = await listLoginAttempts(db, filter, page, limit);
      return ok({
        total,
        list: rows.map((row) => ({
          id: row.id,
          user_id: row.user_id,
          account: row.account_key,
          ip: row.ip,
          user_agent: row.user_agent,
          result: row.success ? 'ok' : row.reason,
          method: row.method,
          created_at: iso(row.created_at),
        })),
      });
    },
  );
}
