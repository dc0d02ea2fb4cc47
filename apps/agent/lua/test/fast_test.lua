-- rampart.fast: which site entries the nginx module may serve without the Lua router, and how.
local cjson = require "cjson.safe"
local fast = require "rampart.fast"

-- A site entry as the agent writes it with the defaults of a new site.
local function site(changes)
  local s = {
    id = 7, hosts = { "www.example.com", "*.example.com" }, http = true, https = false, cert = cjson.null,
    force_https = false, hsts = false, websocket = false, gzip = false, scheme = "http", origin_host = "",
    balance = "round_robin", peers = { { ip = "127.0.0.1", port = 9001, weight = 1, backup = false } },
    request_headers = {}, response_headers = {}, cache = {}, protection = cjson.null,
  }
  for key, value in pairs(changes or {}) do s[key] = value end
  return s
end

local function check(name, changes, expected)
  local got = fast.flags(site(changes))
  assert(got == expected, ("%s: flags %d, expected %d"):format(name, got, expected))
end

check("a new site", nil, fast.HTTP + fast.NO_GZIP + fast.PEER)
check("gzip on", { gzip = true }, fast.HTTP + fast.PEER)
check("HTTPS too", { https = true, cert = "3" }, fast.HTTP + fast.HTTPS + fast.NO_GZIP + fast.PEER)
check("force HTTPS: plain requests redirect in Lua", { https = true, force_https = true }, fast.HTTPS + fast.NO_GZIP + fast.PEER)
check("follow: TLS requests reach the origin over TLS", { https = true, scheme = "follow" }, fast.HTTP + fast.NO_GZIP + fast.PEER)
check("WebSocket: upgrades go to Lua", { websocket = true }, fast.HTTP + fast.NO_GZIP + fast.WEBSOCKET + fast.PEER)
check("one origin with a health check", { health = { path = "/" } }, fast.HTTP + fast.NO_GZIP + fast.PEER)
-- Cache rules: the module sends a request to its rule's named location (cache_spec below).
check("cache rules", { cache = { { prefix = "/s/", location = "@rampart_cache_60", ignore_query = false } } },
  fast.HTTP + fast.NO_GZIP + fast.PEER)

-- The rules as the module reads them, in their order, kept with the site.
local cached = { cache = {
  { prefix = "/static/", location = "@rampart_cache_600", ignore_query = true },
  { ext = "png", location = "@rampart_cache_60", ignore_query = false },
} }
local spec = fast.cache_spec(cached)
assert(spec == "p1/static/\t@rampart_cache_600\ne0png\t@rampart_cache_60\n", spec)
assert(cached.fast_cache == spec and fast.cache_spec({ cache = {} }) == "")

-- Two origins: the Lua balancer chooses, and the Lua router serves the site whatever else it has.
local two = { { ip = "127.0.0.1", port = 1, weight = 1 }, { ip = "127.0.0.2", port = 1, weight = 1 } }
check("two origins", { peers = two }, fast.NO_GZIP)
check("two origins and gzip", { peers = two, gzip = true }, 0)
check("two origins and a request header", { peers = two, request_headers = { { "X-A", "1" } } }, fast.NO_GZIP)

-- Anything the router acts on keeps the router in Lua; the one origin is still the module's, and
-- so is keeping the gzip filter out of a site without gzip.
local lua_only = {
  { "an HTTPS origin", { scheme = "https" } },
  { "HSTS", { hsts = true } },
  { "an origin host", { origin_host = "origin.example.com" } },
  { "a request header", { request_headers = { { "X-A", "1" } } } },
  { "a response header", { response_headers = { { "X-A", "1" } } } },
  { "the WAF", { waf = 1 } },
  { "suspended", { suspend = "traffic" } },
  { "throttled", { rate = 8192 } },
  { "a bandwidth cap", { cap = 125000 } },
  { "redirects", { redirects = {} } },
  { "hotlink protection", { hotlink = {} } },
  { "signed URLs", { url_auth = {} } },
  { "its own error pages", { pages = { ["404"] = "<h1>no</h1>" } } },
  -- A field this module was never taught about: a feature added later stays in Lua until it is.
  { "a field unknown here", { something_new = false } },
}
for _, case in ipairs(lua_only) do check(case[1], case[2], fast.NO_GZIP + fast.PEER) end

-- Not plain HTTP and not HTTPS: no listener takes the fast path.
check("neither listener", { http = false }, fast.NO_GZIP + fast.PEER)

-- Protection settings alone do not decide: what they compile to does (`installed_flags`).
check("protection", { protection = { rule_group_id = 1 } }, fast.HTTP + fast.NO_GZIP + fast.PEER)

-- Protection attached after the entry was read: the router goes back to Lua, unless the module
-- runs it as a program (fast_protect.lua).
assert(fast.installed_flags({ fast_flags = fast.HTTP + fast.PEER }) == fast.HTTP + fast.PEER)
assert(fast.installed_flags({ fast_flags = fast.HTTP + fast.PEER, protect = {} }) == fast.PEER)
assert(fast.installed_flags({ fast_flags = fast.HTTP + fast.NO_GZIP + fast.PEER, protect = {} }) == fast.NO_GZIP + fast.PEER)
assert(fast.installed_flags({ fast_flags = fast.HTTP + fast.PEER, protect = {} }, false) == fast.PEER)
assert(fast.installed_flags({ fast_flags = fast.HTTP + fast.PEER, protect = {} }, {}) == fast.HTTP + fast.PEER)
assert(fast.installed_flags({ fast_flags = 0, protect = {} }) == 0)
