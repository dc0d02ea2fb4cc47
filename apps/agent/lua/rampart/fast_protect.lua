-- A site's compiled protection (protect.lua) written as a program of the nginx module
-- (nginx/ngx_http_rampart_protect.c), so that the fast path can serve a protected site's requests
-- that protection lets through without entering Lua. The program runs protect.lua's checks in its
-- order on the same data: the ACL (address sets and conditions), the whitelist, the master's bans
-- (the node's and the site's), this node's bans and the rate counters in the same shared dicts.
-- Anything it would act on (a deny, a ban, a challenge, a delay, a limit crossed) goes to the Lua
-- router, which decides the request from the start. A site with anything the module cannot run the
-- same way (a regex that is not a list of words) gets no program and keeps the router.
local ffi = require "ffi"
local cidr = require "rampart.cidr"
local conditions = require "rampart.conditions"

ffi.cdef [[
int rampart_protect_shdicts(void *env, void *get, void *incr, void *limits, void *bans);
void *rampart_global_bans_new(void *env, size_t count);
void *rampart_set_new(void *p, size_t count);
int rampart_set_add(void *set, const char *addr, size_t len, unsigned bits, double value);
int rampart_protect_global_bans(void *env, void *set);
void *rampart_protect_new(const char *sid, size_t sid_len);
void rampart_protect_release(void *p);
int rampart_protect_whitelist(void *p, void *set);
int rampart_protect_bans(void *p, void *set);
int rampart_protect_acl(void *p, void *set, int allow);
int rampart_protect_line(void *p, int rate, const char *prefix, size_t prefix_len, int per_url,
  double requests, double ttl_ms);
int rampart_protect_condition(void *p, unsigned field, const char *name, size_t name_len,
  unsigned op, int negate, void *set);
int rampart_protect_value(void *p, const char *value, size_t len);
int rampart_protect_done(void *p);
]]

-- The shared dict calls resty.core makes (declared here when it has not declared them itself).
pcall(ffi.cdef, [[
int ngx_http_lua_ffi_shdict_get(void *zone, const unsigned char *key, size_t key_len,
  int *value_type, unsigned char **str_value_buf, size_t *str_value_len, double *num_value,
  int *user_flags, int get_stale, int *is_stale, char **errmsg);
int ngx_http_lua_ffi_shdict_incr(void *zone, const unsigned char *key, size_t key_len,
  double *value, char **err, int has_init, double init, long init_ttl, int *forcible);
void *ngx_http_lua_ffi_shdict_udata_to_zone(void *zone_udata);
]])

local C = ffi.C
local NULL = nil

local _M = {}

-- The most lines a program counts (RAMPART_MAX_COUNTED).
local MAX_LINES = 64

-- Fills the module's address set `set` (nil: it could not be made) with `texts` (as cidr.new reads
-- them), each valued by value_of(text) (a ban's expiry) or 1; nil when one does not parse or the
-- module refuses it.
local function fill(set, texts, value_of)
  if set == NULL then return nil end
  for _, text in ipairs(texts) do
    local address, bits = text:match("^([^/]+)/(%d+)$")
    local bin = cidr.parse(address or text)
    if not bin then return nil end
    bits = bits and tonumber(bits) or #bin * 8
    if C.rampart_set_add(set, bin, #bin, bits, value_of and value_of(text) or 1) ~= 0 then return nil end
  end
  return set
end

-- An address set of program `p`.
local function set_of(p, texts, value_of) return fill(C.rampart_set_new(p, #texts), texts, value_of) end

-- Adds one condition (conditions.plan's) to the entry or line added last; false when it cannot.
local function add_condition(p, plan)
  local set = nil
  if plan.ranges then
    set = set_of(p, plan.ranges)
    if not set then return false end
  end
  local name = plan.name or ""
  if C.rampart_protect_condition(p, plan.field, name, #name, plan.op, plan.negate and 1 or 0, set) ~= 0 then
    return false
  end
  for _, value in ipairs(plan.values or {}) do
    if C.rampart_protect_value(p, value, #value) ~= 0 then return false end
  end
  return true
end

local function add_acl(p, entries)
  for _, entry in ipairs(entries) do
    local allow = entry.allow and 1 or 0
    if entry.texts then
      local set = set_of(p, entry.texts)
      if not set or C.rampart_protect_acl(p, set, allow) ~= 0 then return false end
    else
      local plan = conditions.plan(entry.condition)
      if not plan or C.rampart_protect_acl(p, NULL, allow) ~= 0 or not add_condition(p, plan) then
        return false
      end
    end
  end
  return true
end

-- The lines of a group for site `sid`, their counters keyed as protect.lua's run_filter keys them.
local function add_lines(p, sid, lines)
  if #lines > MAX_LINES then return false end
  for _, line in ipairs(lines) do
    local f = line.filter
    local rc
    if f.type == "rate" then
      local prefix = "r:" .. sid .. ":" .. line.group .. ":" .. line.index .. ":"
      rc = C.rampart_protect_line(p, 1, prefix, #prefix, f.per == "ip_url" and 1 or 0, f.requests, f.seconds * 1000)
    else
      rc = C.rampart_protect_line(p, 0, "", 0, 0, 0, 0)
    end
    if rc ~= 0 then return false end
    for _, condition in ipairs(line.conditions) do
      local plan = conditions.plan(condition)
      if not plan or not add_condition(p, plan) then return false end
    end
  end
  return true
end

local function zone(dict)
  return dict and C.ngx_http_lua_ffi_shdict_udata_to_zone(dict[1])
end

--- What the programs of the table `env` (the module's rampart_fast_protection) read besides their
--- own: the shared dicts and the node's bans (`node`, protect.lua's). false when this nginx cannot
--- run them.
function _M.start(env, node)
  if env == NULL then return false end
  local ok, limits, bans = pcall(function()
    return zone(ngx.shared.rampart_limits), zone(ngx.shared.rampart_bans)
  end)
  if not ok or limits == nil or bans == nil then return false end
  local get = ffi.cast("void *", C.ngx_http_lua_ffi_shdict_get)
  local incr = ffi.cast("void *", C.ngx_http_lua_ffi_shdict_incr)
  if C.rampart_protect_shdicts(env, get, incr, limits, bans) ~= 0 then return false end
  local global = node and node.global_bans
  if global then
    local set = fill(C.rampart_global_bans_new(env, #global.texts), global.texts, function(text) return global.expiry[text] end)
    if not set or C.rampart_protect_global_bans(env, set) ~= 0 then return false end
  end
  return true
end

local function write(p, site)
  local protect = site.protect
  if protect.acl_entries and not add_acl(p, protect.acl_entries) then return false end
  if protect.whitelist then
    local set = set_of(p, protect.whitelist_texts)
    if not set or C.rampart_protect_whitelist(p, set) ~= 0 then return false end
  end
  local bans = protect.bans
  if bans then
    local set = set_of(p, bans.texts, function(text) return bans.expiry[text] end)
    if not set or C.rampart_protect_bans(p, set) ~= 0 then return false end
  end
  local lines = protect.under_attack and protect.attack or protect.normal
  if lines and not add_lines(p, site.sid, lines) then return false end
  return C.rampart_protect_done(p) == 0
end

--- The program of `site` (its `protect` attached by protect.lua); nil when the module cannot run it
--- the same way. It depends on nothing else, so a swap that keeps the site keeps it (fast.lua keeps
--- it with the compiled protection); the module frees it once this and every table let it go.
function _M.program(site)
  local sid = site.sid
  local p = C.rampart_protect_new(sid, #sid)
  if p == NULL then return nil end
  if not write(p, site) then
    C.rampart_protect_release(p)
    return nil
  end
  return ffi.gc(p, C.rampart_protect_release)
end

return _M
