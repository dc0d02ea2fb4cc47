import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { invalidParam } from '../errors.ts';
import { addRouteHook, methodsOf } from './route-hooks.ts';

/** The path of the first number in `value` that is not finite, or undefined. */
export function nonFiniteAt(value: unknown, path: string): string | undefined {
  const keys = nonFiniteKeys(value);
  return keys === undefined ? undefined : [path, ...keys].join('/');
}

/**
 * The keys down to the first number that is not finite, or undefined. The path is built only for
 * that one: an agent's batch of 5,000 log lines holds some 100,000 values.
 */
function nonFiniteKeys(value: unknown): string[] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : [];
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nonFiniteKeys(value[index]);
      if (found) return [String(index), ...found];
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = nonFiniteKeys((value as Record<string, unknown>)[key]);
    if (found) return [key, ...found];
  }
  return undefined;
}

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where a number can come from: a query or path schema (Ajv coerces text to numbers) or a body
 * (JSON.parse reads 1e309 as Infinity, schema or not). A bodiless route without either schema only
 * ever holds text, so it is not checked.
 */
const mayHoldNumbers = (route: RouteOptions) =>
  route.schema?.querystring !== undefined ||
  route.schema?.params !== undefined ||
  methodsOf(route).some((method) => !BODILESS.has(method));

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The path (`access/3/time`) of the first number that is not finite among every number the
     * handler reads from the body, or undefined: checked instead of walking all of a large body's
     * values (an agent's log batch holds some 100,000). Its schema must put numbers in known places.
     */
    nonFiniteBody?: (body: unknown) => string | undefined;
  }
}

const refusal = (field: string) => invalidParam(field, 'must be a finite number');

function refuseNonFinite(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  for (const [context, value] of [
    ['querystring', request.query],
    ['params', request.params],
    ['body', request.body],
  ] as const) {
    const field = nonFiniteAt(value, context);
    if (field) return done(refusal(field));
  }
  done();
}

/** The same, with the body checked by the route's own `nonFiniteBody`. */
function refuseNonFiniteByRoute(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  let field = nonFiniteAt(request.query, 'querystring') ?? nonFiniteAt(request.params, 'params');
  if (field === undefined) {
    const inBody = request.routeOptions.config.nonFiniteBody?.(request.body);
    if (inBody !== undefined) field = `body/${inBody}`;
  }
  if (field !== undefined) return done(refusal(field));
  done();
}

const checksOwnBody = (route: RouteOptions) => route.config?.nonFiniteBody !== undefined;

/**
 * Ajv coerces a query or path text such as `1e309` to Infinity and then skips the range keywords,
 * which only look at finite numbers: the value would reach the database. After validation a number
 * can only sit where the schema asked for one, so any that is not finite is refused here.
 */
async function finiteNumbersPlugin(app: FastifyInstance) {
  addRouteHook(app, 'preHandler', (route) => mayHoldNumbers(route) && !checksOwnBody(route), refuseNonFinite);
  addRouteHook(app, 'preHandler', checksOwnBody, refuseNonFiniteByRoute);
}

export const finiteNumbers = fp(finiteNumbersPlugin, { name: 'finite-numbers' });
