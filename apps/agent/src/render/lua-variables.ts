/**
 * The variables the Lua router reads while it routes a request (lua/rampart/router.lua, protect.lua,
 * conditions.lua, respond.lua, balancer.lua): with the agent's nginx module loaded, they are indexed
 * when the config loads and lua/rampart/ngx_var.lua reads them by index instead of by name (nginx/
 * ngx_http_rampart_module.c). Names read on rarer paths (error pages, challenges) stay read by name.
 * Each one listed must exist in the config: nginx refuses an unknown variable.
 */
const ROUTER_VARIABLES = [
  'remote_addr',
  'binary_remote_addr',
  'uri',
  'args',
  'is_args',
  'request_uri',
  'request_method',
  'request_id',
  'host',
  'scheme',
  'server_port',
  'upstream_cache_status',
  'http_user_agent',
  'http_referer',
  'http_upgrade',
  'http_content_length',
  'http_transfer_encoding',
  'http_range',
  'http_request_range',
  'http_accept_encoding',
  // Declared by the site server's `set` (http-server.ts).
  'rampart_site_id',
];

export interface LuaVariableOptions {
  /** $rampart_country exists: the GeoIP database is configured. */
  geoip: boolean;
  /** $rampart_capped exists: a site has a bandwidth cap. */
  bandwidthCaps: boolean;
}

/** The variables `rampart_lua_vars` indexes in a config of these options. */
export function luaVariables(options: LuaVariableOptions): string[] {
  return [
    ...ROUTER_VARIABLES,
    ...(options.geoip ? ['rampart_country'] : []),
    ...(options.bandwidthCaps ? ['rampart_capped'] : []),
  ];
}

/** The module's directive that indexes them, for the http block. */
export function luaVariablesDirective(options: LuaVariableOptions): string {
  return `rampart_lua_vars ${luaVariables(options)
    .map((name) => `$${name}`)
    .join(' ')};`;
}
