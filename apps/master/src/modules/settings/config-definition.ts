import type { Permission } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import type { Database } from '../../db/schema.ts';

/**
 * Typed entries of the spec's Config entity (`{scope_name}-{scope_id}-{type}-{name}`): each has a
 * schema, a default and the permission that reads and writes it. A stored value that no longer
 * fits its schema reads as the default. (Its own module: the modules that define entries and
 * configs.ts, which lists them, both need it.)
 */
export interface ConfigDefinition<T extends TSchema = TSchema> {
  scope_name: string;
  scope_id: number;
  type: string;
  name: string;
  schema: T;
  fallback: Static<T>;
  permission: Permission;
  description: string;
  /** The edges serve with it: a change bumps the config version so that every node applies it. */
  edge: boolean;
  /** A rule across fields the schema cannot say: the field and what it must be, or null. */
  check?: (value: Static<T>) => { field: string; rule: string } | null;
  /**
   * Runs in the transaction that saves a new value (with `edge`, the one that bumps the config
   * version), with the value before and after.
   */
  onSave?: (trx: Kysely<Database>, saved: Static<T>, before: Static<T>) => Promise<void>;
  /** Fields answered as SECRET_MASK once saved; a PUT sending the mask keeps what is stored. */
  secrets?: readonly string[];
}
