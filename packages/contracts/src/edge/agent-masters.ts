import { type Static, Type } from 'typebox';
import { MasterAddress } from '../sys-op.ts';

/** The most masters an agent is given to fail over between. */
export const MAX_AGENT_MASTERS = 16;

/**
 * The masters every agent may use, in the order it tries them; it goes on to the next when the one
 * it uses stops answering. Empty: each agent keeps the list it has (its `--master` at first).
 */
export const AgentMasterList = Type.Array(MasterAddress, {
  maxItems: MAX_AGENT_MASTERS,
  uniqueItems: true,
  description: `at most ${MAX_AGENT_MASTERS} different master addresses, each http(s)://host[:port]`,
});
export type AgentMasterList = Static<typeof AgentMasterList>;

/** `global-0-agent-masters`: the list sent to every agent with its config. */
export const AgentMastersSettings = Type.Object({ masters: AgentMasterList }, { additionalProperties: false });
export type AgentMastersSettings = Static<typeof AgentMastersSettings>;

export const DEFAULT_AGENT_MASTERS: AgentMastersSettings = { masters: [] };
