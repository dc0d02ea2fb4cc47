import type { BlockList } from 'node:net';

/** What an API key allows, held with its user in the session cache (its own module: the cache imports it). */
export interface ApiKeyGrant {
  /** Row id of the key. */
  id: number;
  keyId: string;
  scope: 'read' | 'write';
  /** null: any address. */
  allowList: BlockList | null;
}
