import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * One page of a scoped query on one table with an `id` column, newest (highest id) first, and the
 * total the scope holds: what the list calls answer as `{list, total}`.
 */
export async function newestFirstPage<DB, TB extends keyof DB>(
  scoped: SelectQueryBuilder<DB, TB, object>,
  page: number,
  limit: number,
) {
  const [rows, count] = await Promise.all([
    scoped
      .selectAll()
      .orderBy(sql`id`, 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select(sql<number | string | bigint>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number((count as { n: number | string | bigint }).n) };
}
