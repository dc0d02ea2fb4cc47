/** Whether a database error is a unique index refusing a row (SQLite or PostgreSQL): a race lost, not a fault. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error as { code: unknown };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
