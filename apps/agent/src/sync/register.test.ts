import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import { StateStore } from '../state.ts';
import { type MasterClient, MasterError, type MasterRequest } from './master-client.ts';
import { ensureRegistered, nodeIps, RegistrationRejected, registrationHostname } from './register.ts';

/** A master scripted as a list of answers (a value, or an error to throw), recording each request. */
function scriptedMaster(answers: unknown[]) {
  const requests: MasterRequest[] = [];
  const client = {
    call: async (request: MasterRequest) => {
      requests.push(request);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as MasterClient;
  return { client, requests };
}

describe('ensureRegistered', () => {
  let dir: string;
  let state: StateStore;
  const run = (client: MasterClient, installToken: string | null = 'install-token-0123456789') =>
    ensureRegistered({
      client,
      state,
      installToken,
      agentVersion: '0.1.0',
      pollMs: 1,
      log: silentLogger,
      signal: new AbortController().signal,
      hostname: 'edge-1',
      ips: ['10.0.0.1'],
    });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-register-'));
    state = new StateStore(join(dir, 'state.json'));
    await state.load();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('registers, polls with the secret until accepted, and keeps the credential', async () => {
    const { client, requests } = scriptedMaster([
      { pending_id: 3, poll_secret: 's3cret' },
      { state: 'pending' },
      { state: 'accepted', node_id: 9, credential: 'cred' },
    ]);
    expect(await run(client)).toEqual({ nodeId: 9, credential: 'cred' });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/agent/v1/register',
      body: {
        install_token: 'install-token-0123456789',
        hostname: 'edge-1',
        ips: ['10.0.0.1'],
        agent_version: '0.1.0',
      },
    });
    expect(requests[1]).toMatchObject({ path: '/agent/v1/register/3', headers: { 'node-secret': 's3cret' } });
    expect(state.state).toMatchObject({ node_id: 9, credential: 'cred' });
    expect(state.state.pending).toBeUndefined();
    // With a credential, nothing is asked.
    const again = scriptedMaster([]);
    expect(await run(again.client, null)).toEqual({ nodeId: 9, credential: 'cred' });
    expect(again.requests).toEqual([]);
  });

  it('registers again when the pending registration is no longer valid', async () => {
    const { client, requests } = scriptedMaster([
      { pending_id: 3, poll_secret: 'a' },
      new MasterError('conflict', 'the credential was already collected; register again', 409),
      { pending_id: 4, poll_secret: 'b' },
      { state: 'accepted', node_id: 9, credential: 'cred' },
    ]);
    expect(await run(client)).toEqual({ nodeId: 9, credential: 'cred' });
    expect(requests.map((r) => r.path)).toEqual([
      '/agent/v1/register',
      '/agent/v1/register/3',
      '/agent/v1/register',
      '/agent/v1/register/4',
    ]);
  });

  it('gives up when an admin rejects the node or the install token is refused', async () => {
    const rejected = scriptedMaster([{ pending_id: 3, poll_secret: 'a' }, { state: 'rejected' }]);
    await expect(run(rejected.client)).rejects.toThrow(RegistrationRejected);
    expect(state.state.pending).toBeUndefined();
    const refused = scriptedMaster([new MasterError('forbidden', 'not the cluster install token', 403)]);
    await expect(run(refused.client)).rejects.toThrow('the master refused to register this node');
    await expect(run(scriptedMaster([]).client, null)).rejects.toThrow('no --token');
  });
});

describe('registration details', () => {
  it('cleans the host name into the form the contract accepts', () => {
    expect(registrationHostname('edge-1.example.com')).toBe('edge-1.example.com');
    expect(registrationHostname('_weird host!')).toBe('weird-host-');
    expect(registrationHostname('___')).toBe('edge');
  });

  it('lists non-internal addresses, loopback only when alone', () => {
    const address = (value: string, internal: boolean) =>
      ({ address: value, internal, family: 'IPv4', netmask: '', mac: '', cidr: null }) as never;
    expect(
      nodeIps({ lo: [address('127.0.0.1', true)], eth0: [address('10.1.2.3', false), address('fe80::1%eth0', false)] }),
    ).toEqual(['10.1.2.3']);
    expect(nodeIps({ lo: [address('127.0.0.1', true)] })).toEqual(['127.0.0.1']);
  });
});
