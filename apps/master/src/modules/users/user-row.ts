import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/schema.ts';

/** A user as stored; its own module so that the session cache can hold users without importing the repository. */
export type UserRow = Selectable<UsersTable>;
