import type { Stream } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { changedStreamFields, NEW_STREAM, streamBody, streamDraft } from './streamPayload.ts';

const STREAM: Stream = {
  id: 3,
  user_id: 2,
  group_id: null,
  name: 'dns',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  listen_port: 5353,
  protocol: 'udp',
  origins: [{ address: '10.0.0.53', port: 53, weight: 1, backup: false }],
  balance: 'round_robin',
  proxy_protocol: false,
  enabled: true,
};

describe('stream payloads', () => {
  it('builds the create body, leaving out a blank name', () => {
    expect(
      streamBody({ ...NEW_STREAM, listen_port: 8443, origins: [{ address: ' a.example.com ', port: 443 }], name: ' ' }),
    ).toEqual({
      listen_port: 8443,
      protocol: 'tcp',
      origins: [{ address: 'a.example.com', port: 443, weight: 1, backup: false }],
      balance: 'round_robin',
      proxy_protocol: false,
      enabled: true,
      group_id: null,
    });
  });

  it('sends only the changed fields on edit', () => {
    expect(changedStreamFields(STREAM, streamDraft(STREAM))).toEqual({});
    expect(changedStreamFields(STREAM, { ...streamDraft(STREAM), listen_port: 5354, proxy_protocol: true })).toEqual({
      listen_port: 5354,
      proxy_protocol: true,
    });
  });
});
