import type { FastifyInstance, RouteOptions } from 'fastify';

type RouteHookName = 'preHandler' | 'onSend' | 'onResponse';

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Adds `hook` to the routes `wanted` picks, ahead of their own hooks of that name, instead of to every
 * request: a hook that would return at once on most routes still costs each call a turn of the hook
 * runner (and a promise when async). Register before the routes (an onRoute hook sees later routes).
 */
export function addRouteHook<Hook>(
  app: FastifyInstance,
  name: RouteHookName,
  wanted: (route: RouteOptions) => boolean,
  hook: Hook,
) {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!wanted(route)) return;
    const own = asArray(route[name] as Hook | Hook[] | undefined);
    (route as unknown as Record<RouteHookName, Hook[]>)[name] = [hook, ...own];
  });
}

/** The methods of a route, upper case. */
export const methodsOf = (route: RouteOptions): string[] => asArray(route.method).map((method) => method.toUpperCase());
