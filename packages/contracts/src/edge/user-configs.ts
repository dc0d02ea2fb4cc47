import { type Static, Type } from 'typebox';
import { SiteSettings } from './site.ts';

const fields = SiteSettings.properties;

/** What a user may preset for new sites (GET/PUT /v1/user-configs); HTTPS needs a certificate per site. */
export const SiteDefaults = Type.Object(
  {
    balance: Type.Optional(fields.balance),
    origin_protocol: Type.Optional(fields.origin_protocol),
    http2: Type.Optional(fields.http2),
    websocket: Type.Optional(fields.websocket),
    gzip: Type.Optional(fields.gzip),
    request_headers: Type.Optional(fields.request_headers),
    response_headers: Type.Optional(fields.response_headers),
    cache_rules: Type.Optional(fields.cache_rules),
  },
  { additionalProperties: false },
);
export type SiteDefaults = Static<typeof SiteDefaults>;

export const UserConfigs = Type.Object({ site_defaults: SiteDefaults }, { additionalProperties: false });
export type UserConfigs = Static<typeof UserConfigs>;
