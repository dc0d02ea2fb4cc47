import {
  type AddNodeBody,
  IpAddress,
  NODE_DEFAULTS,
  type NodeView,
  type PendingNode,
  type UpdateNodeBody,
} from '@rampart/contracts';

/** The node form's values; 0 stands for "no line group" and "no region" in the selects. */
export interface NodeDraft {
  name: string;
  ips: string[];
  group: number;
  region: number;
  enabled: boolean;
  http_port: number;
  https_port: number;
  max_cache_size_mb: number;
}

export const NODE_FIELDS = [
  'name',
  'ips',
  'group',
  'region',
  'enabled',
  'http_port',
  'https_port',
  'max_cache_size_mb',
] as const;

const IP = new RegExp((IpAddress as unknown as { pattern: string }).pattern);

/** The first entry that is not an IPv4 or IPv6 address, if any. */
export const wrongIp = (ips: readonly string[]): string | undefined => ips.find((ip) => !IP.test(ip));

/** A pending node starts from what its agent reported. */
export const pendingDraft = (pending: PendingNode): NodeDraft => ({
  name: pending.hostname.slice(0, 64),
  ips: [...pending.ips],
  group: 0,
  region: 0,
  enabled: true,
  ...NODE_DEFAULTS,
});

export const nodeDraft = (node: NodeView): NodeDraft => ({
  name: node.name,
  ips: [...node.ips],
  group: node.group_id ?? 0,
  region: node.region_id ?? 0,
  enabled: node.enabled,
  http_port: node.http_port,
  https_port: node.https_port,
  max_cache_size_mb: node.max_cache_size_mb,
});

const fields = (draft: NodeDraft): UpdateNodeBody => ({
  name: draft.name.trim(),
  ips: [...new Set(draft.ips.map((ip) => ip.trim()))],
  group_id: draft.group === 0 ? null : draft.group,
  region_id: draft.region === 0 ? null : draft.region,
  enabled: draft.enabled,
  http_port: draft.http_port,
  https_port: draft.https_port,
  max_cache_size_mb: draft.max_cache_size_mb,
});

export const acceptBody = (pendingId: number, draft: NodeDraft): AddNodeBody => ({
  pending_id: pendingId,
  ...fields(draft),
});

/** Only what changed, so that a save of an untouched form changes nothing (and bumps no config). */
export const updateBody = (node: NodeView, draft: NodeDraft): UpdateNodeBody => {
  const before = fields(nodeDraft(node));
  const after = fields(draft);
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof UpdateNodeBody)[]) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) body[key] = after[key];
  }
  return body as UpdateNodeBody;
};
