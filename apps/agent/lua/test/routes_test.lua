-- The routing table loader: WAF profiles, suspended and rate-limited sites (run by apps/agent/test/lua.test.ts).
local cjson = require "cjson"
local routes = require "rampart.routes"

local function site(id, waf, hsts)
  return {
    id = id, hosts = { "s" .. id .. ".test" }, http = true, https = false, scheme = "http", balance = "round_robin",
    origin_host = "", request_headers = {}, response_headers = {}, protection = cjson.null,
    peers = { { ip = "127.0.0.1", port = 8080, weight = 1, backup = false } },
    cache = { { prefix = "/static/", location = "@rampart_cache_600", ignore_query = false } },
    waf = waf, hsts = hsts,
  }
end

local path = os.tmpname()
local file = assert(io.open(path, "wb"))
file:write(cjson.encode({
  version = 3, https_port = 443, secret = "00", certs = {}, acme = {},
  protection = { rule_groups = {}, acls = {}, bans = {}, unbans = {} },
  sites = { site(1, nil), site(2, 7), site(3, 0), site(4, "1; evil"), site(5, 1.5), site(6, 7, true) },
}))
file:close()
routes.load(path)
os.remove(path)

local plain, guarded = routes.by_id["1"], routes.by_id["2"]
assert(plain and plain.waf_tx == nil, "a site without a WAF profile has no transaction id")
assert(plain.cache[1].location == "@rampart_cache_600", "its cache rule keeps its location")
assert(guarded and guarded.waf_tx == "w7.2.", "a WAF site's transaction ids start with its profile and id")
assert(guarded.cache[1].waf_location == "@rampart_cache_600_waf", "its cache rule knows the WAF twin")
assert(guarded.cache[1].location == "@rampart_cache_600", "and the plain location (for ACL-allowed requests)")
assert(plain.cache[1].waf_location == nil, "a site without the WAF has no twin")
-- Cache locations add X-Cache-Status in nginx; a site with response headers takes the header filter's twin.
local decorated = routes.by_id["6"]
assert(decorated.cache[1].location == "@rampart_cache_600_decorated", "a decorated site takes the filter's twin")
assert(decorated.cache[1].waf_location == "@rampart_cache_600_decorated_waf", "and its WAF twin")
-- An origin reached over TLS takes the `_https` twin of each (the router picks by the origin's scheme).
assert(plain.cache[1].https_location == "@rampart_cache_600_https", "the TLS twin of a plain location")
assert(decorated.cache[1].https_location == "@rampart_cache_600_decorated_https", "the TLS twin of the filter's")
for _, id in ipairs({ "3", "4", "5" }) do
  assert(routes.by_id[id] == nil, "a WAF profile that is not a positive integer refuses site " .. id)
end
assert(table.concat(routes.refused, ",") == "3,4,5", "refused: " .. table.concat(routes.refused, ","))

-- Static extensions of WAF sites: a set the router looks up; refused without a profile or when not a-z 0-9.
local function static_site(id, waf, exts)
  local s = site(id, waf)
  s.waf_static = exts
  return s
end
local many = {}
for i = 1, 101 do many[i] = "e" .. i end
local static_path = os.tmpname()
local static_file = assert(io.open(static_path, "wb"))
static_file:write(cjson.encode({
  version = 5, https_port = 443, secret = "00", certs = {}, acme = {},
  protection = { rule_groups = {}, acls = {}, bans = {}, unbans = {} },
  sites = {
    static_site(11, 2, { "png", "css", "woff2" }), static_site(12, 2, nil), static_site(13, nil, { "png" }),
    static_site(14, 2, { "PNG" }), static_site(15, 2, { "png;" }), static_site(16, 2, { "abcdefghijk" }),
    static_site(17, 2, many), static_site(18, 2, { png = true }), static_site(19, 2, { 7 }),
  },
}))
static_file:close()
routes.refused = {}
routes.load(static_path)
os.remove(static_path)
local skipping, inspecting = routes.by_id["11"], routes.by_id["12"]
assert(skipping and skipping.waf_static.png and skipping.waf_static.woff2 and skipping.waf_static.css,
  "the extensions become a set")
assert(skipping.waf_static[1] == nil and skipping.waf_static.gif == nil, "only the listed extensions are in it")
assert(inspecting and inspecting.waf_static == nil, "without a list every request is inspected")
assert(table.concat(routes.refused, ",") == "13,14,15,16,17,18,19", "refused: " .. table.concat(routes.refused, ","))

-- Requests no site serves: the page by default, the WAF profile of the snapshot, or a closed connection.
assert(not routes.unknown_host.close and routes.unknown_host.waf_tx == nil, "without unknown_host: the page, no WAF")
local function load_unknown(unknown)
  local unknown_path = os.tmpname()
  local f = assert(io.open(unknown_path, "wb"))
  f:write(cjson.encode({ version = 4, https_port = 443, secret = "00", certs = {}, acme = {}, sites = {},
    protection = { rule_groups = {}, acls = {}, bans = {}, unbans = {} }, unknown_host = unknown }))
  f:close()
  routes.unknown_host = { close = false }
  routes.load(unknown_path)
  os.remove(unknown_path)
  return routes.unknown_host
end
local inspected = load_unknown({ action = "page", waf = 3 })
assert(not inspected.close and inspected.waf_tx == "w3.0.", "an inspected page: profile 3, site 0")
local closed = load_unknown({ action = "close", waf = 3 })
assert(closed.close and closed.waf_tx == nil, "a closed connection is never inspected")
local odd = load_unknown({ action = "page", waf = "3; evil" })
assert(not odd.close and odd.waf_tx == nil, "a WAF profile that is not an integer is left out")

-- Inactive packages and bandwidth caps: a known reason, and whole byte rates from 1 to 10 Tbit/s.
local function limited(id, fields)
  local s = site(id, nil)
  for key, value in pairs(fields) do s[key] = value end
  return s
end
local limits_path = os.tmpname()
local limits_file = assert(io.open(limits_path, "wb"))
limits_file:write(cjson.encode({
  version = 6, https_port = 443, secret = "00", certs = {}, acme = {},
  protection = { rule_groups = {}, acls = {}, bans = {}, unbans = {} },
  sites = {
    limited(21, { suspend = "traffic" }), limited(22, { rate = 65536, cap = 1250000 }),
    limited(23, { suspend = "late; evil" }), limited(24, { rate = 0 }), limited(25, { cap = 1.5 }),
    limited(26, { rate = "64k" }), limited(27, { cap = 1250000000001 }),
  },
}))
limits_file:close()
routes.refused = {}
routes.load(limits_path)
os.remove(limits_path)
assert(routes.by_id["21"] and routes.by_id["21"].suspend == "traffic", "a suspended site keeps its reason")
assert(routes.by_id["22"] and routes.by_id["22"].rate == 65536 and routes.by_id["22"].cap == 1250000, "rates load")
assert(table.concat(routes.refused, ",") == "23,24,25,26,27", "refused: " .. table.concat(routes.refused, ","))

-- Cache rules are read top to bottom: the first that matches the path answers.
local rules_site = site(21, nil)
rules_site.cache = {
  { prefix = "/img/", location = "@rampart_cache_60", ignore_query = false },
  { ext = "png", location = "@rampart_cache_600", ignore_query = true },
  { prefix = "/", location = "@rampart_cache_1", ignore_query = false },
}
local rules_path = os.tmpname()
local rules_file = assert(io.open(rules_path, "wb"))
rules_file:write(cjson.encode({ version = 6, https_port = 443, secret = "00", certs = {}, acme = {}, sites = { rules_site, site(22, nil) },
  protection = { rule_groups = {}, acls = {}, bans = {}, unbans = {} } }))
rules_file:close()
routes.load(rules_path)
os.remove(rules_path)
local cached = assert(routes.by_id["21"])
assert(cached.cache_rule("/img/a.png").location == "@rampart_cache_60", "the first rule")
assert(cached.cache_rule("/a/B.PNG").location == "@rampart_cache_600", "an extension, in any case")
assert(cached.cache_rule("/png").location == "@rampart_cache_1", "a name that is only the extension is not one")
assert(routes.by_id["22"].cache_rule("/x") == nil, "a path no rule matches is not cached")
assert(routes.by_id["1"] == nil, "a new table replaces the sites of the one before")
