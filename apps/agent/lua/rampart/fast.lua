-- The fast path's table in the nginx module (nginx/ngx_http_rampart_module.c): every host name of
-- the routing table, with whether its site needs the Lua router and the Lua balancer. A site needs
-- no router when each of its fields is one `NEUTRAL` knows and holds a value the router does nothing
-- for (a field not listed, a feature added later, keeps the site in Lua until it is taught here),
-- and its protection, if any, is one the module runs as a program (fast_protect.lua); it needs no
-- balancer when it has one origin.
local ffi = require "ffi"
local bit = require "bit"
local fast_protect = require "rampart.fast_protect"

ffi.cdef [[
void *rampart_fast_new(size_t hosts);
int rampart_fast_add(void *table, const char *host, size_t host_len, unsigned flags,
  const char *sid, size_t sid_len, const char *ip, unsigned port, void *protect,
  const char *cache, size_t cache_len);
void *rampart_fast_protection(void *table);
void rampart_fast_acme(void *table, int on);
void rampart_fast_free(void *table);
int rampart_fast_install(void *table);
]]

local C = ffi.C

local _M = {}

-- As the module's RAMPART_* flags. PEER alone: the Lua router serves the site, and the module gives
-- its one origin to the upstream of any location that reaches it over plain HTTP.
local HTTP, HTTPS, NO_GZIP, WEBSOCKET, PEER = 0x01, 0x02, 0x04, 0x08, 0x10
_M.HTTP, _M.HTTPS, _M.NO_GZIP, _M.WEBSOCKET, _M.PEER = HTTP, HTTPS, NO_GZIP, WEBSOCKET, PEER

local function empty(v) return type(v) == "table" and #v == 0 and next(v) == nil end
local function any() return true end

-- Each field of a site entry (routes.json, as the agent writes it) the fast path can serve, and the
-- values it can serve it with. `http`, `https`, `force_https`, `scheme`, `gzip` and `websocket` are
-- read again by `flags`; `balance` and `health` do nothing for a site of one origin (the Lua
-- balancer uses neither with one peer).
local NEUTRAL = {
  id = any,
  hosts = any,
  cert = any,
  http = any,
  https = any,
  force_https = any,
  gzip = any,
  websocket = any,
  balance = any,
  health = any,
  scheme = function(v) return v == "http" or v == "follow" end,
  peers = any, -- one origin: `flags` reads it first
  hsts = function(v) return v == false end,
  origin_host = function(v) return v == "" end,
  request_headers = empty,
  response_headers = empty,
  -- Prefix and extension rules (routes.lua checked their shape): the module sends a request to its
  -- rule's named location as the router does (`cache_spec`).
  cache = any,
  -- Its compiled form decides (`installed_flags`): the module runs it, or the router keeps the site.
  protection = any,
}

-- The router's part: 0 when the Lua router must serve the site.
local function router_flags(s)
  for key, value in pairs(s) do
    local neutral = NEUTRAL[key]
    if not neutral or not neutral(value) then return 0 end
  end
  local flags = 0
  -- force_https: the Lua router redirects plain requests; "follow": TLS requests reach the origin
  -- over TLS (the twin location).
  if s.http == true and s.force_https ~= true then flags = flags + HTTP end
  if s.https == true and s.scheme == "http" then flags = flags + HTTPS end
  if flags == 0 then return 0 end
  if s.websocket == true then flags = flags + WEBSOCKET end
  return flags
end

--- The module's flags for a site entry before routes.lua compiles it (0: Lua serves it whole).
--- NO_GZIP whoever routes the site: the module keeps nginx's gzip filter out of its requests, so
--- the Lua router leaves the client's Accept-Encoding on them (the cache keeps its variants).
--- A site of one origin gets PEER whatever else it has: the Lua balancer has nothing to choose for
--- it (no retry, no failure count, no health check), and the module gives the same origin only to a
--- request the Lua router gave this site's id.
function _M.flags(s)
  local flags = s.gzip ~= true and NO_GZIP or 0
  if type(s.peers) ~= "table" or #s.peers ~= 1 then return flags end
  return flags + router_flags(s) + PEER
end

--- The flags the module gets for a compiled site: protection attached after the entry was read (the
--- site's rules, the node's bans) leaves the router to Lua unless the module runs it (`program`).
function _M.installed_flags(site, program)
  local flags = site.fast_flags or 0
  if site.protect ~= nil and not program then return bit.band(flags, PEER + NO_GZIP) end
  return flags
end

local available = nil

--- Whether this nginx loaded the module (its functions are there to call).
function _M.available()
  if available == nil then
    available = pcall(function() return C.rampart_fast_install end)
  end
  return available
end

-- The protection program of a site the router need not serve otherwise (false: none, the router
-- serves it), kept with its compiled protection: a swap that keeps the site (a delta) reuses it.
local function program_of(site, env)
  local protect = site.protect
  if protect == nil or not env or bit.band(site.fast_flags or 0, HTTP + HTTPS) == 0 then return false end
  local program = protect.fast_program
  if program == nil then
    program = fast_protect.program(site) or false
    protect.fast_program = program
  end
  return program
end

-- The site's cache rules as the module reads them (rampart_fast_add): for each rule "p" (a path
-- prefix) or "e" (an extension), "1" when it ignores the query else "0", the prefix or extension, a
-- tab, the named location, a line feed. Kept with the compiled site, as its program is.
local function cache_spec(site)
  local spec = site.fast_cache
  if spec == nil then
    local parts = {}
    for i, rule in ipairs(site.cache) do
      parts[i] = (rule.prefix and "p" or "e") .. (rule.ignore_query and "1" or "0") .. (rule.prefix or rule.ext)
        .. "\t" .. rule.location .. "\n"
    end
    spec = table.concat(parts)
    site.fast_cache = spec
  end
  return spec
end
_M.cache_spec = cache_spec

local function build(t)
  local count = 0
  for _ in pairs(t.hosts) do count = count + 1 end
  local table = C.rampart_fast_new(count)
  if table == nil then return nil, "out of memory" end
  -- The programs' shared part, made ready when a site needs it.
  local env = nil
  for host, site in pairs(t.hosts) do
    if env == nil and site.protect ~= nil then
      env = C.rampart_fast_protection(table)
      if not fast_protect.start(env, t.prepared and t.prepared.node) then env = false end
    end
    local program = program_of(site, env)
    local flags = _M.installed_flags(site, program)
    local peer = bit.band(flags, PEER) ~= 0 and site.peers[1]
    local sid = site.sid
    local cache = bit.band(flags, HTTP + HTTPS) ~= 0 and cache_spec(site) or ""
    if C.rampart_fast_add(table, host, #host, flags, sid, #sid, peer and peer.ip or "", peer and peer.port or 0, program or nil, cache, #cache) ~= 0 then
      C.rampart_fast_free(table)
      return nil, "host " .. host .. " of site " .. sid .. " refused"
    end
  end
  C.rampart_fast_acme(table, next(t.acme) ~= nil and 1 or 0)
  return table
end

--- Makes the module serve routing table `t` (routes.lua's, installed). On any failure the module
--- gets no table, so that every request goes to the Lua router rather than to an older table.
function _M.install(t)
  if not _M.available() then return false end
  local ok, table, err = pcall(build, t)
  if not ok or table == nil then
    ngx.log(ngx.ERR, "rampart: fast path off for this routing table: ", ok and err or table)
    C.rampart_fast_install(nil)
    return false
  end
  return C.rampart_fast_install(table) == 0
end

return _M
