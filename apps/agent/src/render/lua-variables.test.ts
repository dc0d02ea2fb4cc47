import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUA_DIR } from '../paths.ts';
import { luaVariables, luaVariablesDirective } from './lua-variables.ts';

const ALL = { geoip: true, bandwidthCaps: true };

describe('the variables indexed for the Lua router', () => {
  it('lists only variables the Lua modules read, each once', () => {
    const dir = join(LUA_DIR, 'rampart');
    const lua = readdirSync(dir)
      .filter((name) => name.endsWith('.lua'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
    const names = luaVariables(ALL);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(lua, name).toMatch(new RegExp(`\\bvar\\.${name}\\b`));
    }
  });

  it('names $rampart_country only with a GeoIP database and $rampart_capped only with a bandwidth cap', () => {
    const none = luaVariables({ geoip: false, bandwidthCaps: false });
    expect(none).not.toContain('rampart_country');
    expect(none).not.toContain('rampart_capped');
    expect(luaVariables({ geoip: true, bandwidthCaps: false })).toContain('rampart_country');
    expect(luaVariables({ geoip: false, bandwidthCaps: true })).toContain('rampart_capped');
  });

  it('renders one directive of $names', () => {
    expect(luaVariablesDirective({ geoip: false, bandwidthCaps: false })).toMatch(
      /^rampart_lua_vars \$remote_addr( \$[a-z_]+)+ \$rampart_site_id;$/,
    );
  });
});
