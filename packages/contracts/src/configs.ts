import { type Static, Type } from 'typebox';
import { UnknownHostAction } from './edge/snapshot.ts';

/**
 * The spec's Config entity: one typed value under `{scope_name}-{scope_id}-{type}-{name}`, read and
 * written with GET, PUT, DELETE /v1/configs/{key}. DELETE goes back to the default.
 */
export const ConfigKeyParams = Type.Object({
  key: Type.String({
    maxLength: 160,
    pattern: '^[a-z_]{1,32}-[0-9]{1,12}-[a-z_]{1,32}-[a-z_]{1,64}$',
    description: '{scope_name}-{scope_id}-{type}-{name}, for example global-0-waf-defaults',
  }),
});

export const ConfigEntry = Type.Object({
  key: Type.String(),
  scope_name: Type.String(),
  scope_id: Type.Integer({ minimum: 0 }),
  type: Type.String(),
  name: Type.String(),
  value: Type.Unknown(),
  /** ISO 8601; null while the value is the default. */
  updated_at: Type.Union([Type.String(), Type.Null()]),
});
export type ConfigEntry = Static<typeof ConfigEntry>;

export const ConfigListQuery = Type.Object({
  scope_name: Type.Optional(Type.String({ maxLength: 32 })),
  type: Type.Optional(Type.String({ maxLength: 32 })),
});
export type ConfigListQuery = Static<typeof ConfigListQuery>;

/**
 * The value of `global-0-edge-unknown_host`: what the edges do with requests whose Host no site
 * serves, and whether those go through the WAF with the admin's WAF defaults (while those are on).
 */
export const UnknownHostSettings = Type.Object(
  {
    action: UnknownHostAction,
    waf: Type.Boolean({ description: 'inspect them with the WAF defaults (when those are not off)' }),
  },
  { additionalProperties: false },
);
export type UnknownHostSettings = Static<typeof UnknownHostSettings>;

export const DEFAULT_UNKNOWN_HOST: UnknownHostSettings = { action: 'page', waf: true };
