-- Helpers on a request's path without a Lua loop: LuaJIT compiles a request's route into one trace,
-- and a loop in it splits the trace where the loop starts (the rest of the route then ran in the
-- interpreter on some workers and not on others, depending on which counter got hot first: a cache
-- hit cost 4 % or 40 % more from one nginx start to the next). The byte searches are libc's, called
-- through the FFI, which the trace compiles as calls.
local ffi = require "ffi"

local sub = string.sub
local lower = string.lower
local tonumber = tonumber

pcall(ffi.cdef, "void *memrchr(const void *s, int c, size_t n);")
local C = ffi.C
local bytes = ffi.typeof("const char *")

local _M = {}

local SLASH, DOT = 47, 46

--- The extension of the path's last segment, in lower case, or nil when it has none.
function _M.extension(path)
  local n = #path
  local start = ffi.cast(bytes, path)
  local dot = C.memrchr(start, DOT, n)
  if dot == nil then return nil end
  dot = ffi.cast(bytes, dot)
  local slash = C.memrchr(start, SLASH, n)
  if slash ~= nil and ffi.cast(bytes, slash) > dot then return nil end
  local at = tonumber(dot - start) + 2
  if at > n then return nil end
  return lower(sub(path, at))
end

return _M
