import { networkInterfaces, hostname as osHostname } from 'node:os';
import {
  NODE_SECRET_HEADER,
  NodeRegistration,
  type NodeRegistration as NodeRegistrationBody,
  type RegisterNodeBody,
  RegistrationState,
  type RegistrationState as RegistrationStateBody,
} from '@rampart/contracts';
import { errorText, type Logger } from '../logger.ts';
import type { StateStore } from '../state.ts';
import { Backoff, pause } from './backoff.ts';
import { type MasterClient, MasterError } from './master-client.ts';

export interface RegistrationOptions {
  client: MasterClient;
  state: StateStore;
  installToken: string | null;
  agentVersion: string;
  pollMs: number;
  log: Logger;
  signal: AbortSignal;
  hostname?: string;
  ips?: string[];
}

export class RegistrationRejected extends Error {
  override name = 'RegistrationRejected';
}

export interface NodeIdentity {
  nodeId: number;
  credential: string;
}

/**
 * Registers with the cluster install token and waits until an admin accepts the node; the
 * credential is kept in the state file. With a credential already there, nothing is asked.
 */
export async function ensureRegistered(options: RegistrationOptions): Promise<NodeIdentity | null> {
  const { client, state, log, signal } = options;
  const backoff = new Backoff(1000, 30_000);
  let announced = false;
  while (!signal.aborted) {
    const { credential, node_id: nodeId, pending } = state.state;
    if (credential && typeof nodeId === 'number') return { nodeId, credential };
    try {
      if (!pending) {
        if (!options.installToken) throw new RegistrationRejected('no credential yet and no --token to register with');
        const body: RegisterNodeBody = {
          install_token: options.installToken,
          hostname: options.hostname ?? registrationHostname(),
          ips: options.ips ?? nodeIps(),
          agent_version: options.agentVersion,
        };
        const answer = await client.call<NodeRegistrationBody>(
          { method: 'POST', path: '/agent/v1/register', body, signal },
          NodeRegistration,
        );
        await state.update((s) => {
          s.pending = { id: answer.pending_id, secret: answer.poll_secret };
        });
        log.info('registered; waiting for an admin to accept this node', { pending_id: answer.pending_id });
        continue;
      }
      const answer = await client.call<RegistrationStateBody>(
        {
          method: 'GET',
          path: `/agent/v1/register/${pending.id}`,
          headers: { [NODE_SECRET_HEADER]: pending.secret },
          signal,
        },
        RegistrationState,
      );
      backoff.reset();
      if (answer.state === 'accepted' && answer.credential && typeof answer.node_id === 'number') {
        const identity = { nodeId: answer.node_id, credential: answer.credential };
        await state.update((s) => {
          s.node_id = identity.nodeId;
          s.credential = identity.credential;
          delete s.pending;
        });
        log.info('accepted as a node', { node_id: identity.nodeId });
        return identity;
      }
      if (answer.state === 'rejected') {
        await state.update((s) => {
          delete s.pending;
        });
        throw new RegistrationRejected('an admin rejected this node');
      }
      if (!announced) log.info('waiting for an admin to accept this node', { pending_id: pending.id });
      announced = true;
      await pause(options.pollMs, signal);
    } catch (error) {
      if (error instanceof RegistrationRejected || signal.aborted) throw error;
      if (error instanceof MasterError && !error.retryable) {
        if (pending) {
          // The registration is gone (expired, deleted, or its credential was handed out to a
          // request whose answer was lost): register again.
          log.warn('the pending registration is no longer valid; registering again', { error: errorText(error) });
          await state.update((s) => {
            delete s.pending;
          });
          continue;
        }
        throw new RegistrationRejected(`the master refused to register this node: ${error.message}`);
      }
      log.warn('registration: master unreachable, retrying', { error: errorText(error) });
      await pause(backoff.next(), signal);
    }
  }
  return null;
}

/** The host name in the form the contract accepts. */
export function registrationHostname(name = osHostname()): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 253);
  return cleaned === '' ? 'edge' : cleaned;
}

/** The node's addresses, public ones first; loopback only when there is nothing else. */
export function nodeIps(interfaces = networkInterfaces()): string[] {
  const ips: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const address of list ?? []) {
      if (!address.internal && !address.address.startsWith('fe80:')) ips.push(address.address.split('%')[0]!);
    }
  }
  return ips.length > 0 ? ips.slice(0, 32) : ['127.0.0.1'];
}
