import { type Static, Type } from 'typebox';
import { Cidr } from './edge/protection.ts';

/**
 * A user's API key. It goes in the `Access-Token` header as `<key_id>.<secret>`, in place of a
 * session token; the secret is shown once, when the key is created or rotated, and stored hashed.
 */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export const ApiKeyScope = Type.Union([Type.Literal('read'), Type.Literal('write')], {
  description: 'read (GET calls only) or write (every call the user may make)',
});
export type ApiKeyScope = Static<typeof ApiKeyScope>;

export const API_KEY_MAX_ALLOWED_IPS = 100;

const AllowIps = Type.Array(Cidr, {
  maxItems: API_KEY_MAX_ALLOWED_IPS,
  description: `at most ${API_KEY_MAX_ALLOWED_IPS} IP addresses or CIDR ranges; empty: any address`,
});

export const ApiKey = Type.Object({
  key_id: Type.String(),
  scope: ApiKeyScope,
  allow_ips: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_used_ip: Type.String(),
});
export type ApiKey = Static<typeof ApiKey>;

/** The answer of POST and PUT: `secret` and `token` only when a key was made (create or rotate), the one time they are shown. */
export const ApiKeyIssued = Type.Object({
  ...ApiKey.properties,
  secret: Type.Optional(Type.String()),
  token: Type.Optional(Type.String({ description: 'key_id.secret: the Access-Token value' })),
});
export type ApiKeyIssued = Static<typeof ApiKeyIssued>;

export const CreateApiKeyBody = Type.Object(
  { scope: ApiKeyScope, allow_ips: Type.Optional(AllowIps) },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** PUT /v1/api-key: change the scope or the allow list; `rotate` replaces the key id and secret. */
export const UpdateApiKeyBody = Type.Object(
  {
    scope: Type.Optional(ApiKeyScope),
    allow_ips: Type.Optional(AllowIps),
    rotate: Type.Optional(Type.Boolean({ description: 'true or false' })),
  },
  { additionalProperties: false },
);
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;

/** GET /v1/api-key answers the key without its secret, or null when the user has none. */
export const ApiKeyOrNull = Type.Union([ApiKey, Type.Null()]);
