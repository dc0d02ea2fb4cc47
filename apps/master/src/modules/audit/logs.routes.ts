import {
  Envelope,
  ListResult,
  LoginLogEntry,
  LoginLogQuery,
  OpLogEntry,
  OpLogQuery,
  PERMISSIONS,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { accountKey, findUserByAccount } from '../users/users.repository.ts';
import { listLoginAttempts } from './login-logs.repository.ts';
import { listOpLogs } from './op-logs.repository.ts';

const tags = ['logs'];

/** ISO 8601 or Unix seconds, as milliseconds. */
function timeMs(field: string, text: string | undefined) {
  if (text === undefined) return undefined;
  const ms = /^[0-9]+$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (Number.isNaN(ms)) throw invalidParam(field, `${text} is not a time`);
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Admins holding admin:sys read everyone's logs (/sys/log); everyone else reads their own (/account/log). */
function readsAll(request: FastifyRequest) {
  const { user } = caller(request);
  return user.type === 1 && (JSON.parse(user.access) as string[]).includes(PERMISSIONS.adminSys);
}

export async function logRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/log/op',
    { schema: { tags, querystring: OpLogQuery, response: { 200: Envelope(ListResult(OpLogEntry)) } } },
    async (request) => {
      const { page = 1, limit = 20, user, action, target, ip, from, to } = request.query;
      const filter = {
        action,
        target,
        ip,
        fromMs: timeMs('querystring/from', from),
        toMs: timeMs('querystring/to', to),
      };
      let userId: number | undefined = caller(request).user.id;
      if (readsAll(request)) {
        userId = user ? ((await findUserByAccount(db, user))?.id ?? -1) : undefined;
      }
      const { rows, total } = await listOpLogs(db, { ...filter, userId }, page, limit);
      return ok({
        total,
        list: rows.map((row) => ({
          id: row.id,
          user_id: row.user_id,
          account: row.account,
          impersonator_id: row.impersonator_id,
          auth_method: row.auth_method === 'key' ? ('key' as const) : ('session' as const),
          api_key_id: row.api_key_id,
          method: row.method,
          route: row.route,
          action: row.action,
          target_ids: row.target_ids.split(',').filter(Boolean),
          changes: JSON.parse(row.changes) as unknown,
          ip: row.ip,
          user_agent: row.user_agent,
          result: row.result,
          created_at: iso(row.created_at),
        })),
      });
    },
  );

  app.get(
    '/v1/log/login',
    { schema: { tags, querystring: LoginLogQuery, response: { 200: Envelope(ListResult(LoginLogEntry)) } } },
    async (request) => {
      const { page = 1, limit = 20, account, ip, result, from, to } = request.query;
      const all = readsAll(request);
      const filter = {
        userId: all ? undefined : caller(request).user.id,
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
