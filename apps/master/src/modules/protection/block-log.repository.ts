import { type BlockKind, type BlockLogEntry, parseBlockReason } from '@rampart/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { AccessLogsTable, EventDatabase } from '../../db/logs-schema.ts';

type BlockedRow = Pick<
  Selectable<AccessLogsTable>,
  'time_ms' | 'site_id' | 'node_id' | 'client_ip' | 'method' | 'host' | 'uri' | 'status' | 'block_reason'
>;

/** A line whose reason is not in the known format keeps it whole in `detail`. */
export function presentBlocked(row: BlockedRow): BlockLogEntry {
  const reason = parseBlockReason(row.block_reason);
  return {
    time: new Date(row.time_ms).toISOString(),
    site_id: row.site_id,
    node_id: row.node_id,
    client_ip: row.client_ip,
    method: row.method,
    host: row.host,
    uri: row.uri,
    status: row.status,
    kind: reason?.kind ?? '',
    action: reason?.action ?? '',
    group: reason?.group ?? 0,
    match: reason?.match ?? 0,
    filter: reason?.filter ?? 0,
    detail: reason ? reason.detail : row.block_reason,
  };
}

/**
 * A page of access log lines protection acted on, newest first. `siteIds` null: every site (an
 * admin); otherwise only those. The literal `block_reason <> ''` lets both databases use the
 * partial indexes made for this.
 */
export interface BlockFilter {
  siteId?: number | undefined;
  ip?: string | undefined;
  kind?: BlockKind | undefined;
  group?: number | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

export async function listBlocked(
  logs: Kysely<EventDatabase>,
  siteIds: readonly number[] | null,
  filter: BlockFilter,
  page: number,
  limit: number,
) {
  const { siteId, ip, kind, group, fromMs, toMs } = filter;
  if (siteIds?.length === 0) return { list: [], total: 0 };
  const scoped = logs
    .selectFrom('access_logs')
    .where(sql<boolean>`block_reason <> ''`)
    .$if(siteIds !== null, (qb) => qb.where(inIds('site_id', siteIds ?? [])))
    .$if(siteId !== undefined, (qb) => qb.where('site_id', '=', siteId ?? 0))
    .$if(ip !== undefined, (qb) => qb.where('client_ip', '=', ip ?? ''))
    .$if(fromMs !== undefined, (qb) => qb.where('time_ms', '>=', fromMs ?? 0))
    .$if(toMs !== undefined, (qb) => qb.where('time_ms', '<', toMs ?? 0))
    // Kinds are a fixed list and groups integers: neither can hold a LIKE wildcard.
    .$if(kind !== undefined, (qb) => qb.where('block_reason', 'like', `kind=${kind};%`))
    .$if(group !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([eb('block_reason', 'like', `%;group=${group};%`), eb('block_reason', 'like', `%;group=${group}`)]),
      ),
    );
  const [rows, count] = await Promise.all([
    scoped
      .select(['time_ms', 'site_id', 'node_id', 'client_ip', 'method', 'host', 'uri', 'status', 'block_reason'])
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentBlocked), total: Number(count.n) };
}
