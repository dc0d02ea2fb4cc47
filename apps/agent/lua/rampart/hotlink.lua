-- Hotlink protection: whether the page that sent a request for one of a site's files (its Referer)
-- may use it. Compiled once per routing table into sets; a request looks its Referer's host up label
-- by label (www.example.com, then .example.com, then .com), never walks the site's lists.
local paths = require "rampart.paths"

local ngx = ngx
local var = ngx.var
local find = string.find
local sub = string.sub
local byte = string.byte
local lower = string.lower

local _M = {}

local HOST_KEY = "^%.?[a-z0-9][a-z0-9._-]*$"
local REDIRECT = "^https?://[%w%._~:/%?%[%]@!&%(%)%*%+,=%%%-]+$"

local function key_set(list)
  if type(list) ~= "table" or #list > 512 then return nil end
  local set = {}
  for _, key in ipairs(list) do
    if type(key) ~= "string" or #key > 254 or not find(key, HOST_KEY) then return nil end
    set[key] = true
  end
  return set
end

--- The compiled protection of routes.json's `hotlink` entry, or nil when the entry is not the shape
--- the agent writes (the site is then refused, like any other malformed entry).
function _M.compile(h)
  if type(h) ~= "table" or type(h.exts) ~= "table" or #h.exts == 0 or #h.exts > 64 then return nil end
  local exts = {}
  for _, ext in ipairs(h.exts) do
    if type(ext) ~= "string" or not find(ext, "^[a-z0-9]+$") or #ext > 16 then return nil end
    exts[ext] = true
  end
  local deny = key_set(h.deny or {})
  local allow = h.allow ~= nil and key_set(h.allow) or nil
  if not deny or (h.allow ~= nil and not allow) then return nil end
  if h.redirect ~= nil and (type(h.redirect) ~= "string" or #h.redirect > 2048 or not find(h.redirect, REDIRECT)) then
    return nil
  end
  return {
    exts = exts,
    allow = allow,
    deny = deny,
    allow_empty = h.allow_empty == true,
    redirect = h.redirect,
    -- Decisions by Referer, in this worker, for this routing table.
    seen = {},
    remembered = 0,
  }
end

-- Whether `host` or a domain it is under is in `set`.
local function listed(set, host)
  if set[host] then return true end
  local dot = find(host, ".", 2, true)
  while dot do
    if set[sub(host, dot)] then return true end
    dot = find(host, ".", dot + 1, true)
  end
  return false
end

-- Only plain finds and subs from here on: LuaJIT compiles them into the router's trace, where a
-- pattern (string.match, a find with magic characters) would stop compiling the request.
-- Decisions remembered per site and Referer (most requests for a site's files come from a few pages),
-- until this many, then forgotten all at once.
local REMEMBERED = 2000
-- Longer ones are decided every time: the memory stays under 2000 × 512 bytes a site and worker.
local MAX_REMEMBERED_LENGTH = 512

-- The last position of `char` in `text` at or after `from`, or nil.
local function last_of(text, char, from)
  local last
  local at = find(text, char, from, true)
  while at do
    last = at
    at = find(text, char, at + 1, true)
  end
  return last
end

-- The host a Referer URL names (lower case, without user info or port), or nil.
local function referer_host(referer)
  local scheme_end = find(referer, "://", 1, true)
  if not scheme_end or scheme_end == 1 then return nil end
  local from = scheme_end + 3
  -- The authority ends at the first /, ? or #.
  local to = #referer + 1
  for _, char in ipairs({ "/", "?", "#" }) do
    local at = find(referer, char, from, true)
    if at and at < to then to = at end
  end
  to = to - 1
  -- User info ends at the authority's last @.
  local at = last_of(referer, "@", from)
  if at and at <= to then from = at + 1 end
  if from > to then return nil end
  if byte(referer, from) == 91 then -- [
    local close = find(referer, "]", from, true)
    if not close or close > to then return nil end
    return lower(sub(referer, from, close))
  end
  local colon = find(referer, ":", from, true)
  if colon and colon <= to then to = colon - 1 end
  if from > to then return nil end
  return lower(sub(referer, from, to))
end

-- The decision for a Referer: false when it passes, else the host (or the Referer) it is refused for.
local function decide(h, referer)
  local host = referer_host(referer)
  -- A Referer that names no host (a relative or mangled value) is refused like an unlisted one.
  if not host then return referer end
  if listed(h.deny, host) then return host end
  if h.allow and not listed(h.allow, host) then return host end
  return false
end

--- Nil when the request may have the file; else the referer's host ("" without a Referer) it was refused for.
function _M.refused(h, uri)
  local ext = paths.extension(uri)
  if not ext or not h.exts[ext] then return nil end
  local referer = var.http_referer
  if referer == nil or referer == "" then
    if h.allow_empty then return nil end
    return ""
  end
  if #referer > MAX_REMEMBERED_LENGTH then return decide(h, referer) or nil end
  local seen = h.seen
  local decision = seen[referer]
  if decision == nil then
    decision = decide(h, referer)
    if h.remembered >= REMEMBERED then
      seen = {}
      h.seen = seen
      h.remembered = 0
    end
    seen[referer] = decision
    h.remembered = h.remembered + 1
  end
  return decision or nil
end

--- Answers a refused request: 302 to the site's URL, or 403 with the edge's page.
function _M.answer(h, host)
  local detail = host == "" and "no referer" or ("referer " .. host):gsub("[;\r\n]", ",")
  var.rampart_block_reason = "kind=hotlink;action=" .. (h.redirect and "redirect" or "deny") .. ";detail=" .. detail
  if h.redirect then return ngx.redirect(h.redirect, 302) end
  ngx.status = 403
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(require("rampart.challenge").denied_page(false))
  return ngx.exit(403)
end

return _M
