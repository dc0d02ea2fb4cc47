import type { IpState, ProbeVote } from '@rampart/contracts';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ProbeStreak } from './vote.ts';

/** One enabled node IP to probe, on its node's HTTP port. */
export interface ProbeTarget {
  ip: string;
  nodeId: number;
  nodeName: string;
  port: number;
}

/** Every IP of every enabled node. */
export async function listProbeTargets(db: Kysely<Database>): Promise<ProbeTarget[]> {
  const nodes = await db
    .selectFrom('nodes')
    .select(['id', 'name', 'ips', 'http_port'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  const seen = new Set<string>();
  const targets: ProbeTarget[] = [];
  for (const node of nodes) {
    for (const ip of JSON.parse(node.ips) as string[]) {
      if (seen.has(ip)) continue;
      seen.add(ip);
      targets.push({ ip, nodeId: Number(node.id), nodeName: node.name, port: Number(node.http_port) });
    }
  }
  return targets;
}

/** A state row (up) for every target that has none; rows of IPs no enabled node has any more go. */
export async function syncIpStates(db: Kysely<Database>, targets: readonly ProbeTarget[], now: number) {
  const known = await db.selectFrom('node_ip_states').select(['ip', 'node_id']).execute();
  const wanted = new Map(targets.map((target) => [target.ip, target]));
  const stale = known.filter((row) => wanted.get(row.ip)?.nodeId !== Number(row.node_id)).map((row) => row.ip);
  if (stale.length > 0) {
    await db.deleteFrom('node_ip_states').where('ip', 'in', stale).execute();
    await db.deleteFrom('node_ip_probes').where('ip', 'in', stale).execute();
  }
  const present = new Set(known.map((row) => row.ip).filter((ip) => !stale.includes(ip)));
  const missing = targets.filter((target) => !present.has(target.ip));
  for (let i = 0; i < missing.length; i += 500) {
    await db
      .insertInto('node_ip_states')
      .values(
        missing
          .slice(i, i + 500)
          .map((target) => ({ ip: target.ip, node_id: target.nodeId, state: 'up', changed_at: now })),
      )
      .onConflict((oc) => oc.column('ip').doNothing())
      .execute();
  }
}

/**
 * IPs of a node that comes back (re-enabled) start down, with no probe results: they return to DNS
 * only once the checker has seen `successes` good probes in a row, not before the first probe.
 */
export async function holdUntilProbed(db: Kysely<Database>, nodeId: number, ips: readonly string[], now: number) {
  if (ips.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('node_ip_probes').where('ip', 'in', ips).execute();
    await trx
      .insertInto('node_ip_states')
      .values(ips.map((ip) => ({ ip, node_id: nodeId, state: 'down', changed_at: now })))
      .onConflict((oc) => oc.column('ip').doUpdateSet({ node_id: nodeId, state: 'down', changed_at: now }))
      .execute();
  });
}

/** How many nodes are enabled: each runs an agent that may vote on the others' IPs. */
export async function enabledNodeCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('enabled', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The decided state of each IP the checker has seen, by IP. */
export async function ipStates(db: Kysely<Database>) {
  const rows = await db.selectFrom('node_ip_states').select(['ip', 'state', 'changed_at']).execute();
  return new Map(rows.map((row) => [row.ip, { state: row.state, changed_at: Number(row.changed_at) }]));
}

/** Every probe's streak, by IP. */
export async function probeStreaks(db: Kysely<Database>): Promise<Map<string, ProbeStreak[]>> {
  const rows = await db.selectFrom('node_ip_probes').selectAll().execute();
  const byIp = new Map<string, ProbeStreak[]>();
  for (const row of rows) {
    const list = byIp.get(row.ip) ?? [];
    list.push({
      probe: row.probe,
      ok: Number(row.ok) === 1,
      streak: Number(row.streak),
      detail: row.detail,
      updatedAt: Number(row.updated_at),
    });
    byIp.set(row.ip, list);
  }
  return byIp;
}

/** Stores the probes' new streaks. */
export async function saveProbeStreaks(db: Kysely<Database>, list: readonly { ip: string; streak: ProbeStreak }[]) {
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto('node_ip_probes')
      .values(
        list.slice(i, i + 500).map(({ ip, streak }) => ({
          ip,
          probe: streak.probe,
          ok: streak.ok ? 1 : 0,
          streak: streak.streak,
          detail: streak.detail.slice(0, 200),
          updated_at: streak.updatedAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['ip', 'probe']).doUpdateSet((eb) => ({
          ok: eb.ref('excluded.ok'),
          streak: eb.ref('excluded.streak'),
          detail: eb.ref('excluded.detail'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

export interface IpSwitch {
  ip: string;
  nodeId: number;
  nodeName: string;
  from: IpState;
  to: IpState;
  reason: string;
  votes: ProbeVote[];
  lineGroup: string;
  line: string;
}

/**
 * Records a switch: the state changes only if it still is `from` (another master may have decided
 * first), and the log row is written in the same transaction. Answers whether it switched.
 */
export async function applySwitch(db: Kysely<Database>, change: IpSwitch, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('node_ip_states')
      .set({ state: change.to, changed_at: now })
      .where('ip', '=', change.ip)
      .where('state', '=', change.from)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('ip_switch_log')
      .values({
        created_at: now,
        ip: change.ip,
        node_id: change.nodeId,
        node_name: change.nodeName,
        line_group: change.lineGroup,
        line: change.line,
        from_state: change.from,
        to_state: change.to,
        reason: change.reason.slice(0, 500),
        votes: JSON.stringify(change.votes),
      })
      .execute();
    return true;
  });
}

/** The line groups whose records list the IP, the lines it is on, and the groups that back them up. */
export async function placesOfIp(db: Kysely<Database>, ip: string) {
  const rows = await db
    .selectFrom('line_group_records as r')
    .innerJoin('node_groups as g', 'g.id', 'r.group_id')
    .innerJoin('lines as l', 'l.id', 'r.line_id')
    .select(['g.id as group_id', 'g.name as group_name', 'l.name_en as line_name'])
    .where('r.ip', '=', ip)
    .execute();
  const groupIds = [...new Set(rows.map((row) => Number(row.group_id)))];
  // A group using one of these as its backup answers with it when its own IPs are down.
  const backedUp =
    groupIds.length === 0
      ? []
      : await db.selectFrom('node_groups').select('id').where('backup_group_id', 'in', groupIds).execute();
  return {
    groupIds: [...new Set([...groupIds, ...backedUp.map((row) => Number(row.id))])],
    lineGroup: [...new Set(rows.map((row) => row.group_name))].join(', '),
    line: [...new Set(rows.map((row) => row.line_name))].join(', '),
  };
}

/** Admins who hear about failovers (type 1, enabled). */
export async function adminIds(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('type', '=', 1)
    .where('status', '=', 'enabled')
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

export interface IpSwitchFilter {
  ip?: string | undefined;
  nodeId?: number | undefined;
  lineGroup?: string | undefined;
  line?: string | undefined;
  from?: IpState | undefined;
  to?: IpState | undefined;
  startMs?: number | undefined;
  endMs?: number | undefined;
}

export async function listIpSwitches(db: Kysely<Database>, filter: IpSwitchFilter, page: number, limit: number) {
  let query = db.selectFrom('ip_switch_log');
  if (filter.ip) query = query.where('ip', '=', filter.ip);
  if (filter.nodeId !== undefined) query = query.where('node_id', '=', filter.nodeId);
  const contains = (column: 'line_group' | 'line', text: string) =>
    sql<SqlBool>`${sql.ref(column)} like ${`%${text.replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`;
  if (filter.lineGroup) query = query.where(contains('line_group', filter.lineGroup));
  if (filter.line) query = query.where(contains('line', filter.line));
  if (filter.from) query = query.where('from_state', '=', filter.from);
  if (filter.to) query = query.where('to_state', '=', filter.to);
  if (filter.startMs !== undefined) query = query.where('created_at', '>=', filter.startMs);
  if (filter.endMs !== undefined) query = query.where('created_at', '<=', filter.endMs);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
