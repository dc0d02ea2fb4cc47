import {
  Envelope,
  MONITOR_LIMITS,
  NodeIpLog,
  NodeIpLogQuery,
  NodeMonitorList,
  NodeRealtime,
  NodeRealtimeQuery,
  NodeTop,
  NodeTopQuery,
  PERMISSIONS,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import type { MonitorStores } from './monitor.service.ts';
import { monitorNodes, nodeIpLogOf, nodeRealtime, nodeTop } from './node-monitor.service.ts';

const tags = ['monitor'];

/**
 * Node monitoring: charts, top sites, client addresses, the fleet now. Admins with admin:node only,
 * refused to everyone else before the query is read (each route declares admin(admin:node)).
 */
export function nodeMonitorRoutes(app: App, stores: MonitorStores) {
  app.get(
    '/v1/monitor/node/realtime',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description:
          'What the agents of one node (node_id) or every node reported: bandwidth, requests, connections, CPU, memory, disk and load, per minute for ranges up to 1000 minutes, per hour up to 1000 hours, else per UTC day; at most 366 days.',
        querystring: NodeRealtimeQuery,
        response: { 200: Envelope(NodeRealtime) },
      },
    },
    async (request) => ok(await nodeRealtime(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/node/top',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description: `Sites by traffic on one node (node_id) or every node in the range (at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days), from the agents' per-site minutes; site 0 is requests no site serves.`,
        querystring: NodeTopQuery,
        response: { 200: Envelope(NodeTop) },
      },
    },
    async (request) => ok(await nodeTop(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/node/ip-log',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description: `Client addresses one node (node_id) or every node saw in the range (at most ${MONITOR_LIMITS.rawLogDays} days, within the last ${MONITOR_LIMITS.rawLogDays} days): HTTP requests and stream connections, bytes, first and last seen; most active first.`,
        querystring: NodeIpLogQuery,
        response: { 200: Envelope(NodeIpLog) },
      },
    },
    async (request) => ok(await nodeIpLogOf(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/monitor/nodes',
    {
      config: { policy: policy.admin(PERMISSIONS.adminNode) },
      schema: {
        tags,
        description:
          'Every node now: state (online, offline, disabled, never seen), nginx and config version applied, its newest report and the traffic of its last minute.',
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(NodeMonitorList) },
      },
    },
    async () => ok(await monitorNodes(stores, Date.now())),
  );
}
