-- Address sets: IPv4 and IPv6 addresses and CIDR ranges, looked up with one hash probe per distinct
-- prefix length (at most 33 for IPv4), so an ACL of thousands of ranges costs a few table reads.
local byte = string.byte
local char = string.char
local sub = string.sub
local floor = math.floor
local tonumber = tonumber
local unrolled = require "rampart.unrolled"

local _M = {}

-- An IPv4 address as a number (0 to 2^32-1), read byte by byte: no strings made per request.
local function v4_number(text)
  local n, part, dots = 0, -1, 0
  for i = 1, #text do
    local c = byte(text, i)
    if c == 46 then
      if part < 0 or dots == 3 then return nil end
      n = n * 256 + part
      part, dots = -1, dots + 1
    elseif c >= 48 and c <= 57 then
      part = (part < 0 and 0 or part) * 10 + c - 48
      if part > 255 then return nil end
    else
      return nil
    end
  end
  if dots ~= 3 or part < 0 then return nil end
  return n * 256 + part
end
_M.v4_number = v4_number

local function parse_v4(text)
  local a, b, c, d = text:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$")
  if not a then return nil end
  a, b, c, d = tonumber(a), tonumber(b), tonumber(c), tonumber(d)
  if a > 255 or b > 255 or c > 255 or d > 255 then return nil end
  return char(a, b, c, d)
end

local function parse_v6(text)
  if not text:find(":", 1, true) or text:find("[^0-9a-fA-F:.]") then return nil end
  local head, tail = text, nil
  local gap = text:find("::", 1, true)
  if gap then head, tail = sub(text, 1, gap - 1), sub(text, gap + 2) end
  local function groups(part)
    local out = {}
    if part == nil or part == "" then return out end
    for piece in (part .. ":"):gmatch("([^:]*):") do
      if piece:find(".", 1, true) then
        local v4 = parse_v4(piece)
        if not v4 then return nil end
        out[#out + 1] = byte(v4, 1) * 256 + byte(v4, 2)
        out[#out + 1] = byte(v4, 3) * 256 + byte(v4, 4)
      else
        if #piece == 0 or #piece > 4 then return nil end
        out[#out + 1] = tonumber(piece, 16)
      end
    end
    return out
  end
  local left, right = groups(head), groups(tail)
  if not left or not right then return nil end
  local missing = 8 - #left - #right
  if (gap and missing < 1) or (not gap and missing ~= 0) then return nil end
  local all = {}
  for _, g in ipairs(left) do all[#all + 1] = g end
  for _ = 1, missing do all[#all + 1] = 0 end
  for _, g in ipairs(right) do all[#all + 1] = g end
  local bytes = {}
  for i, g in ipairs(all) do
    bytes[2 * i - 1] = floor(g / 256)
    bytes[2 * i] = g % 256
  end
  return char(unpack(bytes))
end

--- The address as 4 or 16 bytes, or nil.
function _M.parse(text)
  if type(text) ~= "string" then return nil end
  return parse_v4(text) or parse_v6(text)
end

local function key_of(bin, bits)
  local whole = floor(bits / 8)
  local rest = bits % 8
  local key = sub(bin, 1, whole)
  if rest > 0 then
    local step = 2 ^ (8 - rest)
    key = key .. char(floor(byte(bin, whole + 1) / step) * step)
  end
  return key
end

--- A set of ranges: IPv4 ones by prefix length as numbers (address / 2^(32 - bits)), IPv6 ones by
--- prefix length as byte strings.
function _M.new(list)
  local set = { v4 = {}, v4_lengths = {}, v6 = {}, v6_lengths = {} }
  for _, text in ipairs(list or {}) do
    local address, bits = text:match("^([^/]+)/(%d+)$")
    address = address or text
    local bin = _M.parse(address)
    if not bin then return nil, "not an address or range: " .. tostring(text) end
    local max = #bin * 8
    bits = bits and tonumber(bits) or max
    if bits > max then return nil, "prefix too long: " .. text end
    local tables, lengths, key = set.v6, set.v6_lengths, nil
    if #bin == 4 then
      tables, lengths = set.v4, set.v4_lengths
      local number = byte(bin, 1) * 16777216 + byte(bin, 2) * 65536 + byte(bin, 3) * 256 + byte(bin, 4)
      key = floor(number / 2 ^ (32 - bits))
    else
      key = key_of(bin, bits)
    end
    local keys = tables[bits]
    if not keys then
      keys = {}
      tables[bits] = keys
      lengths[#lengths + 1] = bits
    end
    keys[key] = text
  end
  local longest_first = function(a, b) return a > b end
  table.sort(set.v4_lengths, longest_first)
  table.sort(set.v6_lengths, longest_first)
  -- The IPv4 lookup as one probe per length, longest first, written out once (no loop per request).
  local keys, divisors = {}, {}
  for i, bits in ipairs(set.v4_lengths) do
    keys[i], divisors[i] = set.v4[bits], 2 ^ (32 - bits)
  end
  set.v4_find = unrolled.probes(keys, divisors)
  return set
end

--- The range of `set` containing the IPv4 address `number` (from v4_number), or nil.
function _M.find_v4(set, number) return set.v4_find(number) end

--- The range of `set` containing the address `bin` (from parse: 4 or 16 bytes), or nil.
function _M.find(set, bin)
  if not bin then return nil end
  if #bin == 4 then
    return _M.find_v4(set, byte(bin, 1) * 16777216 + byte(bin, 2) * 65536 + byte(bin, 3) * 256 + byte(bin, 4))
  end
  for _, bits in ipairs(set.v6_lengths) do
    local hit = set.v6[bits][key_of(bin, bits)]
    if hit then return hit end
  end
  return nil
end

return _M
