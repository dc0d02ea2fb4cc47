import {
  AgentProbePlan,
  AgentProbeReport,
  Envelope,
  IpSwitchEntry,
  IpSwitchQuery,
  ListResult,
  NodeIpStateEntry,
  PERMISSIONS,
  type ProbeVote,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { callingNode } from '../agent/agent-auth.ts';
import { readConfig } from '../settings/configs.ts';
import {
  enabledNodeCount,
  ipStates,
  listIpSwitches,
  listProbeTargets,
  probeStreaks,
  saveProbeStreaks,
} from './health.repository.ts';
import { NODE_MONITOR } from './monitor-settings.ts';
import { nextStreak, nodeProbe, votersFor } from './vote.ts';

const tags = ['health'];

/** ISO 8601 or Unix seconds, as milliseconds. */
function timeMs(field: string, text: string | undefined) {
  if (text === undefined || text === '') return undefined;
  const ms = /^[0-9]+$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (Number.isNaN(ms)) throw invalidParam(field, `${text} is not a time`);
  return ms;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** Admin calls of /node/monitor-setting: the IP-switch log and the IPs' current states. */
export async function healthRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/log/ip-switch',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description:
          'Switches of node IPs between up and down, newest first: when, IP, node, line groups and lines, from, to, reason and each probe’s vote. Filters: ip, node_id, line_group and line (contain), from and to (up or down), start and end (ISO 8601 or Unix seconds).',
        querystring: IpSwitchQuery,
        response: { 200: Envelope(ListResult(IpSwitchEntry)) },
      },
    },
    async (request) => {
      const { page = 1, limit = 20, ip, node_id, line_group, line, from, to, start, end } = request.query;
      const { rows, total } = await listIpSwitches(
        db,
        {
          ip,
          nodeId: node_id,
          lineGroup: line_group,
          line,
          from,
          to,
          startMs: timeMs('querystring/start', start),
          endMs: timeMs('querystring/end', end),
        },
        page,
        limit,
      );
      const list = rows.map((row) => ({
        id: Number(row.id),
        created_at: iso(row.created_at),
        ip: row.ip,
        node_id: Number(row.node_id),
        node_name: row.node_name,
        line_group: row.line_group,
        line: row.line,
        from: row.from_state === 'down' ? ('down' as const) : ('up' as const),
        to: row.to_state === 'down' ? ('down' as const) : ('up' as const),
        reason: row.reason,
        votes: JSON.parse(row.votes) as ProbeVote[],
      }));
      return ok({ list, total });
    },
  );

  app.get(
    '/v1/monitor/node/ip-state',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description:
          'Every enabled node IP as the health checks see it now: up or down, since when, and the probes that vote on it.',
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(ListResult(NodeIpStateEntry)) },
      },
    },
    async () => {
      const { value: settings } = await readConfig(db, NODE_MONITOR);
      const [targets, states, streaks, nodes] = await Promise.all([
        listProbeTargets(db),
        ipStates(db),
        probeStreaks(db),
        enabledNodeCount(db),
      ]);
      const now = Date.now();
      // An IP the checker has not yet seen counts as up, like everywhere else.
      const list = targets.map((target) => {
        const known = states.get(target.ip);
        return {
          ip: target.ip,
          node_id: target.nodeId,
          node_name: target.nodeName,
          state: known?.state === 'down' ? ('down' as const) : ('up' as const),
          changed_at: known ? iso(known.changed_at) : null,
          votes: votersFor(settings, streaks.get(target.ip) ?? [], target.nodeId, now, Math.max(0, nodes - 1)).map(
            ({ probe, ok: good, streak, detail }) => ({ probe, ok: good, streak, detail }),
          ),
        };
      });
      return ok({ list, total: list.length });
    },
  );
}

/** Agent calls: which IPs a node probes for the others, and its results. */
export async function healthAgentRoutes(app: App, { db }: AppContext) {
  app.get(
    '/agent/v1/health/targets',
    { config: { policy: policy.agent }, schema: { tags: ['agent'], response: { 200: Envelope(AgentProbePlan) } } },
    async (request) => {
      const node = await callingNode(db, request);
      const { value: settings } = await readConfig(db, NODE_MONITOR);
      const { enabled, probe, path, expected_status, host = '', interval_seconds, timeout_seconds } = settings;
      const voting = enabled && settings.voters !== 'master';
      const targets = voting
        ? (await listProbeTargets(db))
            .filter((target) => target.nodeId !== node.id)
            .map((target) => ({ ip: target.ip, port: target.port }))
        : [];
      return ok({ enabled: voting, probe, path, expected_status, host, interval_seconds, timeout_seconds, targets });
    },
  );

  app.post(
    '/agent/v1/health/probes',
    { config: { policy: policy.agent }, schema: { tags: ['agent'], body: AgentProbeReport } },
    async (request) => {
      const node = await callingNode(db, request);
      const probe = nodeProbe(node.id);
      // Only other enabled nodes' IPs count; anything else in a report is ignored.
      const theirs = new Set(
        (await listProbeTargets(db)).filter((target) => target.nodeId !== node.id).map((target) => target.ip),
      );
      const streaks = await probeStreaks(db);
      const now = Date.now();
      const updates = request.body.results
        .filter((result) => theirs.has(result.ip))
        .map((result) => {
          const previous = streaks.get(result.ip)?.find((streak) => streak.probe === probe);
          return { ip: result.ip, streak: nextStreak(previous, probe, result.ok, result.detail, now) };
        });
      await saveProbeStreaks(db, updates);
      return ok({ accepted: updates.length });
    },
  );
}
