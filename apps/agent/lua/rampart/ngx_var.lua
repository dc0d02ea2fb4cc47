-- ngx.var's reads, as lua-resty-core makes them, but without the tail call that LuaJIT cannot
-- compile when a trace starts in the reader. resty.core's reader ends in `return ffi.string(...)`:
-- a trace that starts there (the reader is the hottest function of a request) is aborted ("NYI:
-- return to lower frame"), again and again, and its hot counter, which LuaJIT shares with whatever
-- code lands in the same slot, keeps that code from being compiled: when the router's slot was the
-- one, a whole route ran in the interpreter for a worker's first tens of thousands of requests (a
-- proxied request cost 50 % more from one nginx start to the next). The same C call, its value kept
-- in a local and returned: a trace that starts here returns to its caller like any other.
local ffi = require "ffi"
local base = require "resty.core.base"
-- Declares ngx_http_lua_ffi_var_get and gives ngx.var its metatable, whose reader is replaced below.
require "resty.core.var"

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

local function var_get(_, name)
  local r = get_request()
  if not r then error("no request found") end
  local value_len = get_size_ptr()
  local rc
  if type(name) == "number" then
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

--- Makes ngx.var read through `var_get` (its writes stay resty.core's). Run once, in init_by_lua.
function _M.install()
  getmetatable(ngx.var).__index = var_get
end

return _M
