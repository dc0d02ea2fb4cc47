import { hasAccess, type Permission } from '@rampart/contracts';
import type {
  FastifyInstance,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import type { UserRow } from '../modules/users/user-row.ts';
import type { Authenticated } from './auth.ts';
import { securityHeadersHook, setSecurityHeaders } from './security-headers.ts';

/**
 * Who may call a route, declared in the route's own options (`config: { policy }`):
 * - `public`: anyone, signed in or not;
 * - `agent`: an edge node, by its node credential (the handler resolves which node);
 * - `self`: any signed-in user, acting on their own rows only;
 * - `admin`: an administrator (type 1) holding at least one of `codes` (none listed: any administrator);
 * - `tenant`: any signed-in user on their own rows, and an administrator holding one of `codes` on
 *   every user's rows.
 * `impersonation: 'refused'` keeps an admin signed in as a user out of the route (credentials that
 * would outlive the impersonation: API keys).
 */
export type RoutePolicy =
  | { readonly kind: 'public' }
  | { readonly kind: 'agent' }
  | { readonly kind: 'self'; readonly impersonation?: 'refused' }
  | { readonly kind: 'admin'; readonly codes: readonly Permission[] }
  | { readonly kind: 'tenant'; readonly codes: readonly Permission[] };

export const policy = {
  public: { kind: 'public' },
  agent: { kind: 'agent' },
  self: { kind: 'self' },
  /** A signed-in user's own credentials: never under impersonation. */
  selfNotImpersonated: { kind: 'self', impersonation: 'refused' },
  admin: (...codes: Permission[]): RoutePolicy => ({ kind: 'admin', codes }),
  /** At least one code: a tenant route always says which code opens other users' rows. */
  tenant: (code: Permission, ...more: Permission[]): RoutePolicy => ({ kind: 'tenant', codes: [code, ...more] }),
} as const;

/**
 * Whose rows a call may touch, handed to the handler by the policy hook. Repositories scope every
 * query on tenant data by it: `user` reaches the caller's own rows, `admin` every user's.
 */
export type Scope =
  | { readonly kind: 'user'; readonly userId: number }
  | { readonly kind: 'admin'; readonly userId: number };

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyRequest {
    /** Set by the policy hook on every route that needs a signed-in caller. */
    scope: Scope | null;
  }
}

// A user row's access list, parsed once per row object (session cache entries keep the same object).
const parsedAccess = new WeakMap<UserRow, readonly string[]>();

/** The permission codes a user row holds (an ordinary user holds none, whatever the column says). */
export function accessOf(user: UserRow): readonly string[] {
  if (user.type !== 1) return [];
  let access = parsedAccess.get(user);
  if (!access) {
    access = JSON.parse(user.access) as string[];
    parsedAccess.set(user, access);
  }
  return access;
}

/** Whether the user is an administrator holding one of the codes (none listed: any administrator). */
export const holds = (user: UserRow, codes: readonly string[]) => user.type === 1 && hasAccess(accessOf(user), codes);

/** The refusal text of an admin policy, shared by the hook and the tests that read it. */
export const refusalOf = (codes: readonly string[]) =>
  codes.length === 0 ? 'this needs an administrator' : `this needs the ${codes.join(' or ')} permission`;

/** The text of a policy as the OpenAPI document and the README's table show it. */
export function describePolicy(routePolicy: RoutePolicy): string {
  switch (routePolicy.kind) {
    case 'public':
    case 'agent':
      return routePolicy.kind;
    case 'self':
      return routePolicy.impersonation === 'refused' ? 'self (not while impersonating)' : 'self';
    case 'admin':
      return `admin: ${routePolicy.codes.length === 0 ? 'any code' : routePolicy.codes.join(' or ')}`;
    case 'tenant':
      return `own rows; every user's with ${routePolicy.codes.join(' or ')}`;
  }
}

type Authenticate = (request: FastifyRequest) => Promise<void> | undefined;
type Check = (request: FastifyRequest, auth: Authenticated) => void;

/** What a policy asks of the signed-in caller, once `authenticate` has set them; throws to refuse. */
function checkOf(routePolicy: RoutePolicy): Check | null {
  switch (routePolicy.kind) {
    case 'public':
    case 'agent':
      return null;
    case 'self':
      return (request, auth) => {
        if (routePolicy.impersonation === 'refused' && auth.impersonatorId) {
          throw new AppError('forbidden', 'an admin signed in as this user cannot do this');
        }
        request.scope = { kind: 'user', userId: auth.user.id };
      };
    case 'admin': {
      const refusal = refusalOf(routePolicy.codes);
      return (request, auth) => {
        if (auth.user.type !== 1) throw new AppError('forbidden', 'this needs an administrator');
        if (!hasAccess(accessOf(auth.user), routePolicy.codes)) throw new AppError('forbidden', refusal);
        request.scope = { kind: 'admin', userId: auth.user.id };
      };
    }
    case 'tenant':
      return (request, auth) => {
        const every = holds(auth.user, routePolicy.codes);
        request.scope = { kind: every ? 'admin' : 'user', userId: auth.user.id };
      };
  }
}

/** Runs the check and hands its outcome to Fastify (outside the try: the next hook runs inside `done`). */
function settle(request: FastifyRequest, check: Check, done: HookHandlerDoneFunction) {
  let refusal: unknown;
  try {
    if (!request.auth) throw new AppError('login_required', 'please sign in');
    check(request, request.auth);
  } catch (error) {
    refusal = error;
  }
  if (refusal) done(refusal as Error);
  else done();
}

/**
 * The onRequest hook of a policy that needs a caller. Callback style, not async: a cached caller
 * passes with no promise made, which is most of a signed-in call's hook cost.
 */
function guardOf(routePolicy: RoutePolicy, authenticate: Authenticate): onRequestHookHandler | null {
  const check = checkOf(routePolicy);
  if (!check) return null;
  return (request, reply, done) => {
    setSecurityHeaders(request, reply);
    let pending: Promise<void> | undefined;
    try {
      pending = authenticate(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) pending.then(() => settle(request, check, done), done);
    else settle(request, check, done);
  };
}

// Routes a plugin of someone else's declares (the dashboard's static files) take their scope's policy.
const scopePolicies = new WeakMap<FastifyInstance, RoutePolicy>();

/** The policy of every route registered on `scope` itself that declares none (a static file plugin's). */
export function declareScopePolicy(scope: FastifyInstance, routePolicy: RoutePolicy) {
  scopePolicies.set(scope, routePolicy);
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Enforces each route's declared policy before anything else of the request runs, and refuses to
 * register a route that declares none: the app does not start with an unguarded route.
 */
async function routePolicyPlugin(app: FastifyInstance) {
  app.decorateRequest('scope', null);
  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    const routePolicy = route.config?.policy ?? scopePolicies.get(this);
    const methods = asArray(route.method).join(',');
    if (!routePolicy) throw new Error(`${methods} ${route.url}: the route declares no access policy (config.policy)`);
    // The OpenAPI document carries each operation's policy: the role matrix test and the README read it.
    if (route.schema && !route.schema.hide) {
      (route.schema as Record<string, unknown>)['x-policy'] = { ...routePolicy, text: describePolicy(routePolicy) };
    }
    // Every route's first hook sets the answer's security headers; a guard sets them before its check.
    const guard = guardOf(routePolicy, app.authenticate);
    route.onRequest = [guard ?? securityHeadersHook, ...asArray(route.onRequest)];
  });
}

export const routePolicy = fp(routePolicyPlugin, { name: 'route-policy', dependencies: ['auth'] });

/** The scope the policy hook handed this request; only valid on routes whose policy needs a caller. */
export function scopeOf(request: FastifyRequest): Scope {
  if (!request.scope) throw new AppError('login_required', 'please sign in');
  return request.scope;
}
