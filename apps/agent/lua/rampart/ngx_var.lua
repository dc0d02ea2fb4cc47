-- ngx.var's reads, as lua-resty-core makes them, but without the tail call that LuaJIT cannot
-- compile when a trace starts in the reader. resty.core's reader ends in `return ffi.string(...)`:
-- a trace that starts there (the reader is the hottest function of a request) is aborted ("NYI:
-- return to lower frame"), again and again, and its hot counter, which LuaJIT shares with whatever
-- code lands in the same slot, keeps that code from being compiled: when the router's slot was the
-- one, a whole route ran in the interpreter for a worker's first tens of thousands of requests (a
-- proxied request cost 50 % more from one nginx start to the next). The same C call, its value kept
-- in a local and returned: a trace that starts here returns to its caller like any other.
--
-- With the agent's nginx module loaded, the variables its `rampart_lua_vars` lists (the ones the
-- router reads on every request) are read through their nginx index instead of their name, which
-- saves lowercasing and hashing the name and the variables hash's lookup (same values, same caching:
-- nginx/ngx_http_rampart_module.c). Any other name, and every name without the module, is read by
-- name as resty.core reads it.
local ffi = require "ffi"
local base = require "resty.core.base"
-- Declares ngx_http_lua_ffi_var_get and gives ngx.var its metatable, whose reader is replaced below.
require "resty.core.var"

ffi.cdef [[
int rampart_var_name(unsigned slot, const unsigned char **name, size_t *len);
int rampart_var_get(ngx_http_request_t *r, unsigned slot, unsigned char **value, size_t *value_len,
  char **err);
]]

local C = ffi.C
local ffi_str = ffi.string
local type = type
local error = error
local get_request = base.get_request
local get_string_buf = base.get_string_buf
local get_size_ptr = base.get_size_ptr

local value_ptr = ffi.new("unsigned char *[1]")
local errmsg = base.get_errmsg_ptr()

local NGX_OK, NGX_DECLINED, NGX_ERROR = 0, -5, -1

-- The module's slot of each variable it indexed for this config, by lowercase name (install fills it).
local slots = {}

local function var_get(_, name)
  local r = get_request()
  if not r then error("no request found") end
  local value_len = get_size_ptr()
  local rc
  local slot = slots[name]
  if slot then
    rc = C.rampart_var_get(r, slot, value_ptr, value_len, errmsg)
  elseif type(name) == "number" then
    rc = C.ngx_http_lua_ffi_var_get(r, nil, 0, nil, name, value_ptr, value_len, errmsg)
  else
    if type(name) ~= "string" then error("bad variable name", 2) end
    local name_len = #name
    rc = C.ngx_http_lua_ffi_var_get(r, name, name_len, get_string_buf(name_len), 0, value_ptr, value_len, errmsg)
  end
  if rc == NGX_OK then
    local value = ffi_str(value_ptr[0], value_len[0])
    return value
  end
  if rc == NGX_DECLINED then return nil end
  if rc == NGX_ERROR then error(ffi_str(errmsg[0]), 2) end
end

local _M = {}

--- The slots of the variables the module indexed for the config being loaded, by name: none when
--- the module is not loaded (or its config lists none).
function _M.indexed()
  local indexed = {}
  if not pcall(function() return C.rampart_var_get end) then return indexed end
  local name, len = ffi.new("const unsigned char *[1]"), ffi.new("size_t[1]")
  local slot = 0
  while C.rampart_var_name(slot, name, len) == 0 do
    indexed[ffi_str(name[0], len[0])] = slot
    slot = slot + 1
  end
  return indexed
end

--- Makes ngx.var read through `var_get` (its writes stay resty.core's). Run once, in init_by_lua:
--- the module's slots are those of the config being loaded, which the workers then run.
function _M.install()
  slots = _M.indexed()
  getmetatable(ngx.var).__index = var_get
end

return _M
