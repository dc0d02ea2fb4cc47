import type { Balance, Stream, StreamSettings } from '@rampart/contracts';
import { NEW_ORIGIN, type OriginRow, toOrigins } from '../sites/sitePayload.ts';

/** The stream drawer's values. */
export interface StreamDraft {
  listen_port?: number | null;
  protocol: 'tcp' | 'udp';
  origins: OriginRow[];
  balance: Balance;
  proxy_protocol: boolean;
  enabled: boolean;
  name?: string;
  group_id: number | null;
}

export type StreamBody = StreamSettings & { name?: string; group_id: number | null };

export const NEW_STREAM: StreamDraft = {
  listen_port: null,
  protocol: 'tcp',
  origins: [{ ...NEW_ORIGIN }],
  balance: 'round_robin',
  proxy_protocol: false,
  enabled: true,
  group_id: null,
};

export const streamDraft = (stream: Stream): StreamDraft => ({
  listen_port: stream.listen_port,
  protocol: stream.protocol,
  origins: stream.origins,
  balance: stream.balance,
  proxy_protocol: stream.proxy_protocol,
  enabled: stream.enabled,
  name: stream.name,
  group_id: stream.group_id,
});

/** POST /v1/streams, or the full PUT body: every field of the drawer, a blank name left out. */
export const streamBody = (draft: StreamDraft): StreamBody => {
  const body: StreamBody = {
    listen_port: draft.listen_port ?? 0,
    protocol: draft.protocol,
    origins: toOrigins(draft.origins),
    balance: draft.balance,
    proxy_protocol: draft.proxy_protocol,
    enabled: draft.enabled,
    group_id: draft.group_id,
  };
  const name = draft.name?.trim();
  if (name) body.name = name;
  return body;
};

/** PUT /v1/streams/{id}: only the fields that differ from the stored stream. */
export const changedStreamFields = (stream: Stream, draft: StreamDraft): Partial<StreamBody> => {
  const stored = stream as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(streamBody(draft)).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(stored[key])),
  ) as Partial<StreamBody>;
};
