-- Redirects and rewrites of a site: the host switch (www ↔ apex), the trailing-slash switch, then an
-- ordered list of rules where the first that matches the path decides. Compiled once per routing
-- table: exact paths are looked up in a table, and only the prefix and expression rules listed
-- before the first exact match are tried; expressions are compiled once by PCRE (ngx.re's "jo").
-- Targets come split into literal parts and capture numbers, joined without a pattern.
local ngx = ngx
local var = ngx.var
local re_match = ngx.re.match
local find = string.find
local sub = string.sub
local byte = string.byte
local char = string.char
local format = string.format
local concat = table.concat

local _M = {}

local PATH = "^/[%w%._~!&%(%)%*%+,=:@%%/%[%]%-]*$"
local TARGET_TEXT = "^[%w%._~!&%(%)%*%+,=:@%%/%?%[%]%-]*$"
local STATUSES = { [0] = true, [301] = true, [302] = true, [307] = true, [308] = true }
local SLASH, DOT = 47, 46

-- The target's parts, checked: strings of URL characters (an absolute target's scheme and host are
-- in its first), capture numbers up to `groups`.
local function target_parts(t, groups, rewrite)
  if type(t) ~= "table" or #t == 0 or #t > 64 then return nil end
  local parts, length = {}, 0
  for i, part in ipairs(t) do
    if type(part) == "number" then
      if part % 1 ~= 0 or part < 1 or part > groups then return nil end
    elseif type(part) == "string" then
      if #part > 2048 or not find(part, TARGET_TEXT) then return nil end
      length = length + #part
      -- A rewrite hands nginx the path decoded, as $uri is.
      if rewrite then part = ngx.unescape_uri(part) end
    else
      return nil
    end
    parts[i] = part
  end
  if length > 2048 then return nil end
  if rewrite and (type(parts[1]) ~= "string" or byte(parts[1], 1) ~= SLASH) then return nil end
  return parts
end

-- The groups an expression has, by PCRE itself; nil when it does not compile.
local function groups_of(value)
  if type(value) ~= "string" or #value == 0 or #value > 256 then return nil end
  local ok, _, err = pcall(re_match, "", value, "jo")
  if not ok or err then return nil end
  -- Count "(" not followed by "?" and not escaped or in a class: the agent wrote only the portable
  -- subset (checked in redirect-route.ts), so this is the same count.
  local count, i, in_class = 0, 1, false
  while i <= #value do
    local b = byte(value, i)
    if b == 92 then i = i + 1
    elseif in_class then in_class = b ~= 93
    elseif b == 91 then in_class = true
    elseif b == 40 and byte(value, i + 1) ~= 63 then count = count + 1 end
    i = i + 1
  end
  return count
end

local function bytes_of(text)
  local bytes = {}
  for i = 1, #text do bytes[i] = byte(text, i) end
  return bytes
end

--- The compiled redirects of routes.json's `redirects` entry, or nil when the entry is not the shape
--- the agent writes (the site is then refused, like any other malformed entry).
function _M.compile(r)
  if type(r) ~= "table" or type(r.rules) ~= "table" or #r.rules > 100 then return nil end
  local exact, ordered = {}, {}
  for i, rule in ipairs(r.rules) do
    if type(rule) ~= "table" or not STATUSES[rule.s] then return nil end
    local m, v = rule.m, rule.v
    local groups
    if m == "r" then
      groups = groups_of(v)
      if not groups then return nil end
    elseif m == "e" or m == "p" then
      if type(v) ~= "string" or #v > 1024 or not find(v, PATH) then return nil end
      groups = m == "p" and 1 or 0
    else
      return nil
    end
    local rewrite = rule.s == 0
    local parts = target_parts(rule.t, groups, rewrite)
    if not parts then return nil end
    -- An expression's literal start, compared before PCRE runs (most paths start otherwise).
    local pre, need = rule.pre, rule.need
    for _, text in ipairs({ pre or "x", need or "x" }) do
      if m ~= "r" and text ~= "x" or type(text) ~= "string" or #text > 256 or not find(text, "^[^%c]+$") then
        return nil
      end
    end
    local compiled = {
      index = i, m = m, v = v, status = rule.s, rewrite = rewrite, parts = parts, keep_query = rule.q == true,
      -- What the path must start with: the prefix, or the expression's literal start.
      start = m == "p" and bytes_of(v) or (pre and bytes_of(pre)),
      len = m == "p" and #v or (pre and #pre),
      -- And text it must hold somewhere (a plain find).
      need = need,
    }
    if m == "e" then
      if exact[v] == nil then exact[v] = compiled end
    else
      ordered[#ordered + 1] = compiled
    end
  end
  local hosts
  if r.hosts ~= nil then
    if type(r.hosts) ~= "table" then return nil end
    hosts = {}
    for from, to in pairs(r.hosts) do
      if type(from) ~= "string" or type(to) ~= "string" or not find(from, "^[a-z0-9._-]+$")
        or not find(to, "^[a-z0-9._-]+$") or #from > 253 or #to > 253 then
        return nil
      end
      hosts[from] = to
    end
  end
  if r.slash ~= nil and r.slash ~= "add" and r.slash ~= "remove" then return nil end
  return { exact = exact, ordered = ordered, hosts = hosts, slash = r.slash }
end

--- The name a request for `host` is moved to by the host switch, if any.
function _M.host(r, host)
  local hosts = r.hosts
  return hosts and hosts[host]
end

-- Bytes a capture may hold as they are in a Location; the rest is percent-encoded (a capture comes
-- from the decoded path, which may hold spaces, CR or LF).
local KEEP = {}
for b = 48, 57 do KEEP[b] = true end
for b = 65, 90 do KEEP[b] = true end
for b = 97, 122 do KEEP[b] = true end
for _, b in ipairs({ 45, 46, 95, 126, SLASH }) do KEEP[b] = true end

local function escape(text)
  local n = #text
  for i = 1, n do
    if not KEEP[byte(text, i)] then
      local out = {}
      for j = 1, n do
        local b = byte(text, j)
        out[j] = KEEP[b] and char(b) or format("%%%02X", b)
      end
      return concat(out)
    end
  end
  return text
end

local function build(rule, captures)
  local parts = rule.parts
  if #parts == 1 and type(parts[1]) == "string" then return parts[1] end
  local out = {}
  for i = 1, #parts do
    local part = parts[i]
    if type(part) == "number" then
      local text = captures and captures[part] or ""
      if text == false then text = "" end
      out[i] = rule.rewrite and text or escape(text)
    else
      out[i] = part
    end
  end
  return concat(out)
end

-- The query of the visitor's request, with its "?", or "".
local function query()
  local args = var.args
  if args and args ~= "" then return "?" .. args end
  return ""
end

-- The raw path of the request (as sent, without the query).
local function raw_path()
  local uri = var.request_uri
  local q = find(uri, "?", 1, true)
  return q and sub(uri, 1, q - 1) or uri
end

--- Applies the site's redirects to the request's (decoded) `path`: answers a redirect, or rewrites
--- the path and returns the new one, or returns nil when nothing applies.
function _M.apply(r, path)
  local slash = r.slash
  if slash then
    local n = #path
    if slash == "add" then
      if byte(path, n) ~= SLASH then
        -- A last segment with a dot is a file: left as it is.
        local i = n
        while i > 0 do
          local b = byte(path, i)
          if b == SLASH then break end
          if b == DOT then i = -1 break end
          i = i - 1
        end
        if i >= 0 then return ngx.redirect(raw_path() .. "/" .. query(), 301) end
      end
    elseif n > 1 and byte(path, n) == SLASH then
      local raw = raw_path()
      return ngx.redirect(sub(raw, 1, #raw - 1) .. query(), 301)
    end
  end
  local chosen = r.exact[path]
  local limit = chosen and chosen.index or 1e9
  local captures
  local ordered = r.ordered
  local length = #path
  for i = 1, #ordered do
    local rule = ordered[i]
    if rule.index > limit then break end
    -- Byte by byte: no string is made for a rule that does not match.
    local start, n = rule.start, rule.len
    local fits = true
    if start then
      if n > length then
        fits = false
      else
        for j = 1, n do
          if byte(path, j) ~= start[j] then
            fits = false
            break
          end
        end
      end
    end
    if fits then
      if rule.m == "p" then
        chosen = rule
        captures = { sub(path, n + 1) }
        break
      end
      local need = rule.need
      local m = (need == nil or find(path, need, 1, true)) and re_match(path, rule.v, "jo")
      if m then
        chosen = rule
        captures = m
        break
      end
    end
  end
  if not chosen then return nil end
  local target = build(chosen, captures)
  if chosen.rewrite then
    ngx.req.set_uri(target, false)
    if not chosen.keep_query then ngx.req.set_uri_args("") end
    return target
  end
  if chosen.keep_query then
    local args = var.args
    if args and args ~= "" then target = target .. (find(target, "?", 1, true) and "&" or "?") .. args end
  end
  return ngx.redirect(target, chosen.status)
end

return _M
