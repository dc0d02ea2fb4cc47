// The floor for a list call: a bare Fastify server (no auth, hooks or schemas) answering one page of
// the bench user's sites with hand-written SQL on the master's SQLite file (read-only): the same rows,
// columns and join the master's page query reads (newest first, with the owner's account), and the
// total as the master now reads it (site_counts). Rows go out as stored: no settings parsed, no site
// objects presented. Started by bench/signed-in-profile.ts; env RAMPART_PORT, RAMPART_DATA_DIR.
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { USER_ACCOUNT } from './signed-in-seed.ts';

const sqlite = new SqliteDatabase(join(process.env.RAMPART_DATA_DIR ?? '', 'rampart.db'), { readonly: true });
const userId = (sqlite.prepare('select id from users where username = ?').get(USER_ACCOUNT) as { id: number }).id;
// The columns the master's page query reads (modules/sites/site-list.repository.ts), no more.
const page = sqlite.prepare(
  `select sites.id, sites.user_id, sites.group_id, sites.line_group_id, sites.name, sites.settings,
   sites.created_at, sites.updated_at, users.username as user_account
   from sites left join users on users.id = sites.user_id
   where sites.user_id = ? order by sites.id desc limit ? offset ?`,
);
const total = sqlite.prepare('select sites from site_counts where user_id = ?').pluck();

const app = Fastify({ logger: false });
app.get('/raw-sites', async (request) => {
  const query = request.query as { page?: string; limit?: string };
  const limit = Number(query.limit ?? 20);
  const offset = (Number(query.page ?? 1) - 1) * limit;
  return { code: 0, msg: 'ok', data: { list: page.all(userId, limit, offset), total: total.get(userId) ?? 0 } };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.RAMPART_PORT) });
