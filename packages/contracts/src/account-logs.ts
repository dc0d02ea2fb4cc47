import { type Static, Type } from 'typebox';
import { LogTime } from './edge/protection-api.ts';
import { ListQuery } from './envelope.ts';

/** How a call was signed in: a session token from POST /v1/login, or an API key. */
export const AuthMethod = Type.Union([Type.Literal('session'), Type.Literal('key')], {
  description: 'session or key',
});
export type AuthMethod = Static<typeof AuthMethod>;

const Account = Type.String({ maxLength: 254, description: 'an account name, at most 254 characters' });
const Ip = Type.String({
  maxLength: 45,
  pattern: '^[0-9A-Fa-f.:]+$',
  description: 'an IP address such as 203.0.113.5',
});

/** GET /v1/log/op: admins holding admin:sys search everyone's entries; others get their own. */
const OpLogFilters = {
  user: Type.Optional(Account),
  impersonator: Type.Optional(Account),
  action: Type.Optional(
    Type.String({ maxLength: 64, pattern: '^[a-z0-9.-]+$', description: 'an action such as sites.update' }),
  ),
  target: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9.:-]{1,64}$', description: 'an object id: 1 to 64 letters, digits, . : or -' }),
  ),
  ip: Type.Optional(Ip),
  /** From (inclusive) and to (exclusive). */
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
};

export const OpLogQuery = Type.Object({ ...ListQuery.properties, ...OpLogFilters });
export type OpLogQuery = Static<typeof OpLogQuery>;

/** GET /v1/log/op/export: the same filters, every matching entry as CSV (newest first, at most OP_LOG_EXPORT_MAX). */
export const OpLogExportQuery = Type.Object(OpLogFilters);
export type OpLogExportQuery = Static<typeof OpLogExportQuery>;
export const OP_LOG_EXPORT_MAX = 100_000;

/** One successful write through the API: who, as whom, what, on which objects, with which fields (secrets masked). */
export const OpLogEntry = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  account: Type.Union([Type.String(), Type.Null()], { description: 'null when the user was removed' }),
  impersonator_id: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the admin who acted as the user, or null',
  }),
  impersonator_account: Type.Union([Type.String(), Type.Null()], {
    description: 'the account of the admin who acted as the user, or null',
  }),
  auth_method: AuthMethod,
  api_key_id: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  route: Type.String({ description: 'the route pattern, such as /v1/sites/:id' }),
  action: Type.String({ description: 'resource and verb, such as sites.update' }),
  target_ids: Type.Array(Type.String()),
  target_names: Type.Array(Type.String(), {
    description:
      "what each of target_ids names, in the same order: the site's name, the account, the package's name, the stream's name, …; the id itself when the row is gone or has no name",
  }),
  changes: Type.Unknown({ description: 'the request body as sent, secrets replaced by ******' }),
  ip: Type.String(),
  user_agent: Type.String(),
  result: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});
export type OpLogEntry = Static<typeof OpLogEntry>;

export const LOGIN_RESULTS = ['ok', 'bad_credentials', 'captcha', 'disabled', 'two_factor'] as const;
export const LoginResult = Type.Union(
  [
    Type.Literal('ok'),
    Type.Literal('bad_credentials'),
    Type.Literal('captcha'),
    Type.Literal('disabled'),
    Type.Literal('two_factor'),
  ],
  { description: LOGIN_RESULTS.join(', ') },
);
export type LoginResult = Static<typeof LoginResult>;

export const LoginMethod = Type.Union(
  [Type.Literal('password'), Type.Literal('totp'), Type.Literal('recovery'), Type.Literal('key')],
  { description: 'password, totp, recovery or key' },
);
export type LoginMethod = Static<typeof LoginMethod>;

/** GET /v1/log/login: admins holding admin:sys search every attempt; others get their own. */
export const LoginLogQuery = Type.Object({
  ...ListQuery.properties,
  account: Type.Optional(Account),
  ip: Type.Optional(Ip),
  result: Type.Optional(LoginResult),
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
});
export type LoginLogQuery = Static<typeof LoginLogQuery>;

export const LoginLogEntry = Type.Object({
  id: Type.Integer(),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no such account exists' }),
  account: Type.String({ description: 'the account as typed, lowercased' }),
  ip: Type.String(),
  user_agent: Type.String(),
  result: Type.String({ description: LOGIN_RESULTS.join(', ') }),
  method: Type.String({ description: 'password, totp, recovery or key' }),
  created_at: Type.String({ format: 'date-time' }),
});
export type LoginLogEntry = Static<typeof LoginLogEntry>;
