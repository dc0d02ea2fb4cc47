import { AgentMastersSettings, DEFAULT_AGENT_MASTERS, PERMISSIONS } from '@rampart/contracts';
import type { ConfigDefinition } from './config-definition.ts';

/** The same master written twice (`HTTPS://CDN.example.com` and `https://cdn.example.com`). */
function listedTwice(masters: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const master of masters) {
    const key = master.toLowerCase();
    if (seen.has(key)) return master;
    seen.add(key);
  }
  return null;
}

/**
 * `global-0-agent-masters`: the masters every agent may use and fails over between, sent with the
 * config (a change bumps the config version, so each agent hears of it with its long poll). An agent
 * keeps the list in its data directory; empty leaves each agent the list it has.
 */
export const AGENT_MASTERS: ConfigDefinition<typeof AgentMastersSettings> = {
  scope_name: 'global',
  scope_id: 0,
  type: 'agent',
  name: 'masters',
  schema: AgentMastersSettings,
  fallback: DEFAULT_AGENT_MASTERS,
  permission: PERMISSIONS.adminConfig,
  description:
    'Masters the agents use, in the order they try them, failing over to the next when one stops answering: {masters: at most 16 different http(s)://host[:port]}. Empty: every agent keeps the list it has (its --master at first)',
  check: (value) => {
    const twice = listedTwice(value.masters);
    return twice === null ? null : { field: 'masters', rule: `must list each master once (${twice} is there twice)` };
  },
  edge: true,
};
