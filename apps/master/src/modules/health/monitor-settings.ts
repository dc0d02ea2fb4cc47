import { DEFAULT_NODE_MONITOR, NodeMonitorSettings, PERMISSIONS } from '@rampart/contracts';
import type { ConfigDefinition } from '../settings/config-definition.ts';

/** `global-0-node-monitor`, the settings of /node/monitor-setting; the master reads them every round. */
export const NODE_MONITOR: ConfigDefinition<typeof NodeMonitorSettings> = {
  scope_name: 'global',
  scope_id: 0,
  type: 'node',
  name: 'monitor',
  schema: NodeMonitorSettings,
  fallback: DEFAULT_NODE_MONITOR,
  permission: PERMISSIONS.adminNode,
  description:
    'Health checks of node IPs: {enabled, probe (http or tcp), path, expected_status, interval_seconds, timeout_seconds, failures (before down), successes (before up), voters (master, nodes or master_and_nodes)}',
  // A probe that may outlast the interval would overlap the next round of the same IP.
  check: (value) =>
    value.timeout_seconds > value.interval_seconds
      ? {
          field: 'timeout_seconds',
          rule: `at most interval_seconds (${value.interval_seconds}): a probe must end before the next one starts`,
        }
      : null,
  // A change bumps the config version: agents hear of it with the config they long-poll and read
  // their probe plan again at once, rather than at their next periodic read.
  edge: true,
};
