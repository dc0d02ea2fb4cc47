import type { UserGroup } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserGroupsTable } from '../../db/schema.ts';

type UserGroupRow = Selectable<UserGroupsTable> & { user_count: number | string | bigint };

export const groupNameKey = (name: string) => name.trim().toLowerCase();

export const presentUserGroup = (row: UserGroupRow): UserGroup => ({
  id: Number(row.id),
  name: row.name,
  description: row.description,
  is_default: row.is_default === 1,
  package_groups: row.package_groups === null ? null : (JSON.parse(row.package_groups) as number[]),
  user_count: Number(row.user_count),
  created_at: new Date(Number(row.created_at)).toISOString(),
  updated_at: new Date(Number(row.updated_at)).toISOString(),
});

const withUserCount = (db: Kysely<Database>) =>
  db
    .selectFrom('user_groups')
    .selectAll('user_groups')
    .select((eb) =>
      eb
        .selectFrom('users')
        .select((inner) => inner.fn.countAll().as('n'))
        .whereRef('users.group_id', '=', 'user_groups.id')
        .as('user_count'),
    );

export async function listUserGroups(db: Kysely<Database>, page: number, limit: number, search: string | undefined) {
  const term = search?.trim().toLowerCase() ?? '';
  const scoped = db.selectFrom('user_groups').$if(term !== '', (qb) => qb.where('name_key', 'like', `%${term}%`));
  const [rows, count] = await Promise.all([
    withUserCount(db)
      .$if(term !== '', (qb) => qb.where('user_groups.name_key', 'like', `%${term}%`))
      .orderBy('user_groups.id', 'asc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => presentUserGroup({ ...row, user_count: row.user_count ?? 0 })),
    total: Number(count.n),
  };
}

export async function findUserGroup(db: Kysely<Database>, id: number) {
  const row = await withUserCount(db).where('user_groups.id', '=', id).executeTakeFirst();
  return row && presentUserGroup({ ...row, user_count: row.user_count ?? 0 });
}

export const findGroupByName = (db: Kysely<Database>, name: string) =>
  db.selectFrom('user_groups').select('id').where('name_key', '=', groupNameKey(name)).executeTakeFirst();

export interface UserGroupValues {
  name?: string | undefined;
  description?: string | undefined;
  isDefault?: boolean | undefined;
  packageGroups?: readonly number[] | null | undefined;
}

/** Only one group is the default: making one so clears the flag elsewhere (call inside a transaction). */
async function clearDefault(db: Kysely<Database>, except: number) {
  await db
    .updateTable('user_groups')
    .set({ is_default: 0 })
    .where('is_default', '=', 1)
    .where('id', '!=', except)
    .execute();
}

export async function insertUserGroup(db: Kysely<Database>, values: UserGroupValues & { name: string }, now: number) {
  const row = await db
    .insertInto('user_groups')
    .values({
      name: values.name.trim(),
      name_key: groupNameKey(values.name),
      description: values.description ?? '',
      is_default: values.isDefault ? 1 : 0,
      package_groups: values.packageGroups == null ? null : JSON.stringify(values.packageGroups),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (values.isDefault) await clearDefault(db, Number(row.id));
  return Number(row.id);
}

export async function updateUserGroup(db: Kysely<Database>, id: number, values: UserGroupValues, now: number) {
  await db
    .updateTable('user_groups')
    .set({
      ...(values.name !== undefined && { name: values.name.trim(), name_key: groupNameKey(values.name) }),
      ...(values.description !== undefined && { description: values.description }),
      ...(values.isDefault !== undefined && { is_default: values.isDefault ? 1 : 0 }),
      ...(values.packageGroups !== undefined && {
        package_groups: values.packageGroups === null ? null : JSON.stringify(values.packageGroups),
      }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  if (values.isDefault) await clearDefault(db, id);
}

export async function deleteUserGroup(db: Kysely<Database>, id: number) {
  await db.deleteFrom('user_groups').where('id', '=', id).execute();
}
