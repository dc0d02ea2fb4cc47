-- The rewrite phase of ngx-var.test.ts's location (inlined in the edge's config): reads each variable
-- through ngx.var (by index for those the module indexed) and by name through lua-nginx-module's own
-- call, as ngx.var read every one before ngx_var.lua, then changes the request and reads them again.
-- Answers {indexed = "names", before = {name = [via ngx.var, by name]}, after = {...}}.
local ffi = require "ffi"
local base = require "resty.core.base"
local cjson = require "cjson.safe"

local value, len, err = ffi.new("unsigned char *[1]"), ffi.new("size_t[1]"), ffi.new("char *[1]")

local function by_name(name)
  local buf = base.get_string_buf(#name)
  local rc = ffi.C.ngx_http_lua_ffi_var_get(base.get_request(), name, #name, buf, 0, value, len, err)
  if rc == 0 then return ffi.string(value[0], len[0]) end
  return nil
end

local indexed = {}
for name in pairs(require("rampart.ngx_var").indexed()) do indexed[#indexed + 1] = name end
table.sort(indexed)

-- Names the router reads (indexed or not), names never indexed (a header without a variable of its
-- own, a cookie, an argument, one nginx does not know), and every other indexed one.
local names = { "uri", "args", "http_range", "http_upgrade", "http_user_agent", "http_x_probe", "cookie_probe",
  "arg_a", "rampart_no_such_variable" }
local listed = {}
for _, name in ipairs(names) do listed[name] = true end
for _, name in ipairs(indexed) do
  if not listed[name] then names[#names + 1] = name end
end

local function read_all()
  local seen = {}
  for _, name in ipairs(names) do
    local via_var = ngx.var[name]
    local named = by_name(name)
    seen[name] = { via_var == nil and cjson.null or via_var, named == nil and cjson.null or named }
  end
  return seen
end

local before = read_all()
ngx.req.set_uri("/changed")
ngx.req.set_uri_args("a=2")
ngx.req.set_header("Range", "bytes=0-1")
ngx.req.set_header("X-Probe", "changed")
ngx.req.set_header("User-Agent", "changed/2")
ngx.req.clear_header("Upgrade")
ngx.header["Content-Type"] = "application/json"
ngx.print(cjson.encode({ indexed = table.concat(indexed, " "), before = before, after = read_all() }))
return ngx.exit(200)
