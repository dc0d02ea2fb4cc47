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
  edge: false,
};
