-- Helpers on a request's path, with byte reads and subs only (LuaJIT compiles them into the request).
local byte = string.byte
local sub = string.sub
local lower = string.lower

local _M = {}

local SLASH, DOT = 47, 46

--- The extension of the path's last segment, in lower case, or nil when it has none.
function _M.extension(path)
  for i = #path, 1, -1 do
    local b = byte(path, i)
    if b == DOT then return i < #path and lower(sub(path, i + 1)) or nil end
    if b == SLASH then return nil end
  end
  return nil
end

return _M
