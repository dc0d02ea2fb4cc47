-- Signed URLs (URL authentication): schemes a (?auth_key=ts-rand-uid-md5), b (/YYYYMMDDHHMM/md5/path)
-- and c (/md5/hex-ts/path), with a primary and a backup key and a validity; see the contract
-- (packages/contracts/src/edge/url-auth.ts) for what is signed. Only plain finds, byte reads and subs
-- on the request path: LuaJIT keeps compiling the router.
local paths = require "rampart.paths"
local unrolled = require "rampart.unrolled"

local ngx = ngx
local var = ngx.var
local md5 = ngx.md5
local find = string.find
local sub = string.sub
local byte = string.byte
local lower = string.lower
local floor = math.floor

local _M = {}

local SLASH = 47
local PARAM = "auth_key="
local PARAM_LENGTH = #PARAM
local MAX_TTL = 31536000

local function is_key(k)
  return type(k) == "string" and #k >= 16 and #k <= 64 and find(k, "^[A-Za-z0-9]+$") ~= nil
end

--- The compiled settings of routes.json's `url_auth` entry, or nil when it is not the agent's shape.
function _M.compile(u)
  if type(u) ~= "table" or (u.type ~= "a" and u.type ~= "b" and u.type ~= "c") then return nil end
  if type(u.keys) ~= "table" or #u.keys < 1 or #u.keys > 2 then return nil end
  for _, k in ipairs(u.keys) do if not is_key(k) then return nil end end
  if type(u.ttl) ~= "number" or u.ttl % 1 ~= 0 or u.ttl < 1 or u.ttl > MAX_TTL then return nil end
  if type(u.prefixes) ~= "table" or #u.prefixes > 64 or type(u.exts) ~= "table" or #u.exts > 64 then return nil end
  local finds = {}
  for i, prefix in ipairs(u.prefixes) do
    if type(prefix) ~= "string" or #prefix > 512 or byte(prefix, 1) ~= SLASH then return nil end
    local length = #prefix
    finds[i] = function(path)
      if sub(path, 1, length) == prefix then return true end
      return nil
    end
  end
  local exts
  for _, ext in ipairs(u.exts) do
    if type(ext) ~= "string" or #ext > 16 or not find(ext, "^[a-z0-9]+$") then return nil end
    exts = exts or {}
    exts[ext] = true
  end
  return {
    type = u.type,
    key = u.keys[1],
    backup = u.keys[2],
    ttl = u.ttl,
    everywhere = #finds == 0 and exts == nil,
    under = #finds > 0 and unrolled.first(finds) or nil,
    exts = exts,
    -- Good signatures by URL, in this worker, for this routing table.
    seen = {},
    remembered = 0,
  }
end

local function needed(u, path)
  if u.everywhere then return true end
  if u.under and u.under(path) then return true end
  if u.exts then
    local ext = paths.extension(path)
    if ext and u.exts[ext] then return true end
  end
  return false
end

local function signed_by(u, text, hash)
  hash = lower(hash)
  if md5(text .. u.key) == hash then return true end
  return u.backup ~= nil and md5(text .. u.backup) == hash
end

local function signed_with_key_first(u, before, after, hash)
  hash = lower(hash)
  if md5(u.key .. before .. after) == hash then return true end
  return u.backup ~= nil and md5(u.backup .. before .. after) == hash
end

-- Digits only (tonumber alone would take spaces, signs, exponents).
local function digits(text)
  for i = 1, #text do
    local b = byte(text, i)
    if b < 48 or b > 57 then return false end
  end
  return #text > 0
end

-- Hexadecimal digits only.
local function hex_digits(text)
  for i = 1, #text do
    local b = byte(text, i)
    if not ((b >= 48 and b <= 57) or (b >= 97 and b <= 102) or (b >= 65 and b <= 70)) then return false end
  end
  return #text > 0
end

-- Days from 1970-01-01 to a civil date (proleptic Gregorian), without the local time zone.
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

-- YYYYMMDDHHMM (UTC) as Unix seconds, or nil.
local function stamp_time(stamp)
  local y, mo, d = tonumber(sub(stamp, 1, 4)), tonumber(sub(stamp, 5, 6)), tonumber(sub(stamp, 7, 8))
  local h, mi = tonumber(sub(stamp, 9, 10)), tonumber(sub(stamp, 11, 12))
  if mo < 1 or mo > 12 or d < 1 or d > 31 or h > 23 or mi > 59 then return nil end
  return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60
end

-- The query without its auth_key parameter.
local function without_param(args, from, to)
  local before = from > 1 and sub(args, 1, from - 2) or ""
  local after = to < #args and sub(args, to + 2) or ""
  if before == "" then return after end
  if after == "" then return before end
  return before .. "&" .. after
end

local function scheme_a(u, path, args, now)
  local from
  if sub(args, 1, PARAM_LENGTH) == PARAM then
    from = 1
  else
    local at = find(args, "&" .. PARAM, 1, true)
    from = at and at + 1
  end
  if not from then return needed(u, path) and "missing" or nil end
  local to = find(args, "&", from, true)
  to = to and to - 1 or #args
  local value = sub(args, from + PARAM_LENGTH, to)
  local d1 = find(value, "-", 1, true)
  local d2 = d1 and find(value, "-", d1 + 1, true)
  local d3 = d2 and find(value, "-", d2 + 1, true)
  if not d3 or find(value, "-", d3 + 1, true) then return "malformed" end
  local ts, hash = sub(value, 1, d1 - 1), sub(value, d3 + 1)
  if not digits(ts) or #ts > 12 or #hash ~= 32 then return "malformed" end
  if now > tonumber(ts) + u.ttl then return "expired" end
  if not signed_by(u, path .. "-" .. sub(value, 1, d3 - 1) .. "-", hash) then return "bad signature" end
  local rest = without_param(args, from, to)
  return nil, path .. (rest ~= "" and "?" .. rest or ""), path, tonumber(ts) + u.ttl, rest
end

local function scheme_b(u, path, args, now)
  -- /YYYYMMDDHHMM/<32 hex>/path
  local stamp = sub(path, 2, 13)
  if #path < 48 or byte(path, 14) ~= SLASH or byte(path, 47) ~= SLASH or not digits(stamp) then
    return needed(u, path) and "missing" or nil
  end
  local t = stamp_time(stamp)
  if not t then return "malformed" end
  if now > t + u.ttl then return "expired" end
  local rest = sub(path, 47)
  if not signed_with_key_first(u, stamp, rest, sub(path, 15, 46)) then return "bad signature" end
  return nil, rest .. (args ~= "" and "?" .. args or ""), rest, t + u.ttl
end

local function scheme_c(u, path, args, now)
  -- /<32 hex>/<hex time>/path
  local slash = #path > 35 and byte(path, 34) == SLASH and find(path, "/", 35, true)
  local hex = slash and sub(path, 35, slash - 1)
  local t = hex and #hex <= 12 and hex_digits(hex) and tonumber(hex, 16)
  if not t then return needed(u, path) and "missing" or nil end
  if now > t + u.ttl then return "expired" end
  local rest = sub(path, slash)
  if not signed_with_key_first(u, rest, hex, sub(path, 2, 33)) then return "bad signature" end
  return nil, rest .. (args ~= "" and "?" .. args or ""), rest, t + u.ttl
end

-- Good signatures remembered per site and URL (popular signed links are asked for again and again),
-- with the time they stop being good, until this many, then forgotten all at once.
local REMEMBERED = 2000
local MAX_REMEMBERED_LENGTH = 512

--- Checks the request against the site's signed URLs. Answers nothing when it passes untouched;
--- the reason it is refused; or nil, the cache key's path and query, the path the cache rules and
--- redirects see, and (schemes b and c) the URI the caller must set before the request leaves the
--- router, when its signature was taken off. Scheme a's query is changed here, through `$args` (the
--- module's `set_uri_args` is a C function that stops LuaJIT's trace); the caller sets a path just
--- before its own `ngx.exec`, where the trace stops anyway.
function _M.check(u)
  local raw = var.request_uri
  local now = ngx.time()
  local known = u.seen[raw]
  if known and now <= known.good_until then
    local args = known.args
    if args then var.args = args end
    return nil, known.cache_path, known.path, known.uri
  end
  local q = find(raw, "?", 1, true)
  local path = q and sub(raw, 1, q - 1) or raw
  local args = q and sub(raw, q + 1) or ""
  local t = u.type
  local refused, cache_path, served, good_until, rest_args
  if t == "a" then
    refused, cache_path, served, good_until, rest_args = scheme_a(u, path, args, now)
  elseif t == "b" then
    refused, cache_path, served, good_until = scheme_b(u, path, args, now)
  else
    refused, cache_path, served, good_until = scheme_c(u, path, args, now)
  end
  if refused then return refused end
  if not served then return nil end
  local uri, seen_path
  if t == "a" then
    var.args = rest_args
    seen_path = var.uri
  else
    uri = ngx.unescape_uri(served)
    seen_path = uri
  end
  if #raw <= MAX_REMEMBERED_LENGTH then
    if u.remembered >= REMEMBERED then
      u.seen = {}
      u.remembered = 0
    end
    u.seen[raw] = { good_until = good_until, cache_path = cache_path, path = seen_path, uri = uri, args = rest_args }
    u.remembered = u.remembered + 1
  end
  return nil, cache_path, seen_path, uri
end

--- Answers a refused request: 403 with the edge's page, counted in the block log.
function _M.answer(reason)
  var.rampart_block_reason = "kind=urlauth;action=deny;detail=" .. reason
  ngx.status = 403
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(require("rampart.challenge").denied_page(false))
  return ngx.exit(403)
end

return _M
