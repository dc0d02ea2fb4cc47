import type { NodeView, PendingNode } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { acceptBody, nodeDraft, pendingDraft, updateBody, wrongIp } from './nodeDraft.ts';

const pending: PendingNode = {
  id: 7,
  hostname: 'edge-hk-1',
  ips: ['203.0.113.7', '2001:db8::7'],
  agent_version: '0.1.0',
  client_ip: '203.0.113.7',
  created_at: '2026-11-25T10:00:00.000Z',
};

const node: NodeView = {
  id: 3,
  name: 'edge-hk-1',
  ips: ['203.0.113.7'],
  group_id: 2,
  region_id: null,
  enabled: true,
  maintenance: false,
  http_port: 80,
  https_port: 443,
  max_cache_size_mb: 10_240,
  status: 'online',
  last_seen_at: null,
  applied_version: 4,
  last_error: '',
  dropped_log_lines: 0,
  agent_version: '0.1.0',
  apply_errors: [],
  clock_offset_seconds: 0,
};

describe('node form', () => {
  it('accepts a pending node with what its agent reported and the defaults', () => {
    expect(acceptBody(7, pendingDraft(pending))).toEqual({
      pending_id: 7,
      name: 'edge-hk-1',
      ips: ['203.0.113.7', '2001:db8::7'],
      group_id: null,
      region_id: null,
      enabled: true,
      http_port: 80,
      https_port: 443,
      max_cache_size_mb: 10_240,
    });
  });

  it('sends only what changed, with "none" as null and IPs once each', () => {
    expect(updateBody(node, nodeDraft(node))).toEqual({});
    const draft = { ...nodeDraft(node), group: 0, ips: ['203.0.113.7', ' 203.0.113.8', '203.0.113.8'] };
    expect(updateBody(node, draft)).toEqual({ group_id: null, ips: ['203.0.113.7', '203.0.113.8'] });
  });

  it('names the first entry that is not an IP address', () => {
    expect(wrongIp(['203.0.113.7', '2001:db8::1'])).toBeUndefined();
    expect(wrongIp(['203.0.113.7', '203.0.113.300', 'edge.example.com'])).toBe('203.0.113.300');
  });
});
