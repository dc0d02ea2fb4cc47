import { type Compilable, CompiledQuery, type Kysely } from 'kysely';

/**
 * A query of the hot paths (every agent call, every metrics report) whose SQL does not depend on its
 * values: Kysely builds and compiles it once per database (its dialect: SQLite and PostgreSQL write
 * placeholders differently), then each call runs that SQL with its own parameters. Building and
 * compiling a query cost the master more than SQLite running it (a fifth of its CPU, and much of its
 * garbage, while 1,000 agents took a new config), and the same SQL string each time is found in the
 * statement cache without hashing a new one (db/database.ts).
 *
 * `parameters` lists the values in the order the compiled query binds them; the first compile on each
 * database checks it against Kysely's own list and throws when they differ, so a query whose shape
 * changes with its values (an `in` list, an optional column) cannot be cached by mistake.
 */
export function prepared<DB, A extends readonly unknown[], O>(
  build: (db: Kysely<DB>, ...args: A) => Compilable<O>,
  parameters: (...args: A) => readonly unknown[],
): (db: Kysely<DB>, ...args: A) => Promise<O[]> {
  // By the executor's adapter: one per Kysely instance, shared with its transactions.
  const compiled = new WeakMap<object, string>();
  return async (db, ...args) => {
    const values = parameters(...args);
    const adapter = db.getExecutor().adapter;
    let text = compiled.get(adapter);
    if (text === undefined) {
      const query = build(db, ...args).compile();
      if (!sameValues(query.parameters, values)) {
        throw new Error(
          `prepared query: parameters ${describe(values)} are not the compiled query's ${describe(query.parameters)} (${query.sql})`,
        );
      }
      text = query.sql;
      compiled.set(adapter, text);
    }
    const result = await db.executeQuery<O>(CompiledQuery.raw(text, [...values]));
    return result.rows;
  };
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

const describe = (values: readonly unknown[]) =>
  JSON.stringify(values, (_, value) => (typeof value === 'bigint' ? String(value) : value));
