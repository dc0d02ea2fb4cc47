import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { invalidParam } from '../errors.ts';

/** The path of the first number in `value` that is not finite, or undefined. */
export function nonFiniteAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFiniteAt(item, `${path}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * Ajv coerces a query or path text such as `1e309` to Infinity and then skips the range keywords,
 * which only look at finite numbers: the value would reach the database. After validation a number
 * can only sit where the schema asked for one, so any that is not finite is refused here.
 */
async function finiteNumbersPlugin(app: FastifyInstance) {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    for (const [context, value] of [
      ['querystring', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const field = nonFiniteAt(value, context);
      if (field) throw invalidParam(field, 'must be a finite number');
    }
  });
}

export const finiteNumbers = fp(finiteNumbersPlugin, { name: 'finite-numbers' });
