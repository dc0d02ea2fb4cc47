-- The routing table of one config version: loaded once in the nginx master (init_by_lua), so every
-- worker shares it copy-on-write. The agent writes routes.json already validated; this loader checks
-- the shape again and leaves out (and counts) an entry it cannot use instead of failing the config.
local cjson = require "cjson.safe"
local unrolled = require "rampart.unrolled"

local byte = string.byte
local lower = string.lower
local sub = string.sub

local _M = {
  version = -1, sites = {}, by_id = {}, hosts = {}, certs = {}, acme = {}, refused = {}, unprotected = {},
  -- Requests no site serves: closed (444), or a page after the WAF when `waf_tx` is set.
  unknown_host = { close = false, waf_tx = nil },
  -- The fleet's error pages ("404", ..., "waf"): status -> language -> body.
  error_pages = {}, error_language = "zh-CN",
}

local function is_string(v, max) return type(v) == "string" and #v <= max end
local function is_port(v) return type(v) == "number" and v >= 1 and v <= 65535 and v % 1 == 0 end

local SAFE_HEADER_NAME = "^[A-Za-z0-9][A-Za-z0-9-]*$"
-- Printable ASCII only: no CR, LF, NUL or other controls can reach a header.
local SAFE_VALUE = "^[ -~]*$"

local function header_list(list)
  if type(list) ~= "table" then return nil end
  for _, pair in ipairs(list) do
    if type(pair) ~= "table" or not is_string(pair[1], 64) or not is_string(pair[2], 1024)
      or not pair[1]:find(SAFE_HEADER_NAME) or not pair[2]:find(SAFE_VALUE) then
      return nil
    end
  end
  return list
end

local function valid_site(s)
  if type(s) ~= "table" or type(s.id) ~= "number" or s.id % 1 ~= 0 or s.id < 1 then return false end
  if type(s.hosts) ~= "table" or #s.hosts == 0 or type(s.peers) ~= "table" or #s.peers == 0 then return false end
  for _, h in ipairs(s.hosts) do
    if not is_string(h, 253) or not h:find("^[*]?[a-z0-9._-]+$") then return false end
  end
  for _, p in ipairs(s.peers) do
    if type(p) ~= "table" or not is_string(p.ip, 45) or not p.ip:find("^[0-9a-fA-F:.]+$") or not is_port(p.port)
      or type(p.weight) ~= "number" or p.weight < 1 or p.weight > 100 then
      return false
    end
  end
  if s.scheme ~= "http" and s.scheme ~= "https" and s.scheme ~= "follow" then return false end
  if s.balance ~= "round_robin" and s.balance ~= "weighted" and s.balance ~= "ip_hash" then return false end
  if not is_string(s.origin_host, 253) or not s.origin_host:find(SAFE_VALUE) then return false end
  if not header_list(s.request_headers) or not header_list(s.response_headers) then return false end
  if type(s.cache) ~= "table" then return false end
  for _, rule in ipairs(s.cache) do
    if type(rule) ~= "table" or not is_string(rule.location, 64) or not rule.location:find("^@rampart_[a-z0-9_]+$") then
      return false
    end
    if rule.prefix == nil and rule.ext == nil then return false end
    if rule.prefix ~= nil and (not is_string(rule.prefix, 512) or not rule.prefix:find(SAFE_VALUE)) then return false end
    if rule.ext ~= nil and (not is_string(rule.ext, 16) or not rule.ext:find("^[a-z0-9]+$")) then return false end
  end
  if s.suspend ~= nil and s.suspend ~= "expired" and s.suspend ~= "suspended" and s.suspend ~= "traffic" then
    return false
  end
  -- Bytes per second: a throttle (per request) and a bandwidth cap (the site's requests together).
  for _, rate in ipairs({ s.rate or 1, s.cap or 1 }) do
    if type(rate) ~= "number" or rate % 1 ~= 0 or rate < 1 or rate > 1250000000000 then return false end
  end
  if s.waf ~= nil and (type(s.waf) ~= "number" or s.waf % 1 ~= 0 or s.waf < 1 or s.waf > 89999) then return false end
  if s.waf_static ~= nil then
    -- Extensions whose plain requests skip the WAF: only with a WAF profile, at most 100, 1 to 10 a-z 0-9.
    if s.waf == nil or type(s.waf_static) ~= "table" or #s.waf_static > 100 then return false end
    for key, ext in pairs(s.waf_static) do
      if type(key) ~= "number" or not is_string(ext, 10) or not ext:find("^[a-z0-9]+$") then return false end
    end
  end
  return true
end

-- The first cache rule a path matches (rules read top to bottom), or nil: written out once (no loop
-- per request).
local function cache_chain(rules)
  local finds = {}
  for i, rule in ipairs(rules) do
    local prefix, ext = rule.prefix, rule.ext
    if prefix then
      local length = #prefix
      finds[i] = function(uri)
        if sub(uri, 1, length) == prefix then return rule end
        return nil
      end
    else
      local length = #ext
      finds[i] = function(uri)
        local from = #uri - length
        if from > 1 and byte(uri, from) == 46 and lower(sub(uri, from + 1)) == ext then return rule end
        return nil
      end
    end
  end
  return unrolled.first(finds)
end

--- Loads `path`; returns nothing, raises on an unreadable file (the config must not load half-empty).
function _M.load(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  local data = assert(cjson.decode(text), "routes.json does not parse")
  _M.version = data.version
  _M.https_port = data.https_port
  local pages = data.error_pages
  if type(pages) == "table" and type(pages.files) == "table" then
    if pages.default_language == "en-US" then _M.error_language = "en-US" end
    -- Paths the agent wrote, relative to the tree: read here once, never per request.
    local dir = path:match("^(.*/)") or ""
    for _, status in ipairs({ "400", "403", "404", "500", "502", "503", "504", "waf" }) do
      local files = pages.files[status]
      if type(files) == "table" then
        for _, language in ipairs({ "zh-CN", "en-US" }) do
          local name = files[language]
          if type(name) == "string" and name:match("^errors/[a-zA-Z-]+/[a-z0-9]+%.html$") then
            local page = io.open(dir .. name, "rb")
            if page then
              _M.error_pages[status] = _M.error_pages[status] or {}
              _M.error_pages[status][language] = page:read("*a")
              page:close()
            end
          end
        end
      end
    end
  end
  local unknown = data.unknown_host
  if type(unknown) == "table" then
    _M.unknown_host.close = unknown.action == "close"
    local waf = unknown.waf
    if type(waf) == "number" and waf % 1 == 0 and waf >= 1 and waf <= 89999 and not _M.unknown_host.close then
      -- Site 0 in the transaction id: the agent ships the finding as a node-level line.
      _M.unknown_host.waf_tx = "w" .. string.format("%d", waf) .. ".0."
    end
  end
  for _, s in ipairs(data.sites or {}) do
    if valid_site(s) then
      s.sid = tostring(s.id)
      s.has_cache = #s.cache > 0
      -- Responses that need the header filter (HSTS, the site's own headers) take a named location.
      s.decorated = s.hsts == true or #s.response_headers > 0
      -- Cache locations add X-Cache-Status themselves; their `_decorated` twin runs the header filter.
      if s.decorated then
        for _, rule in ipairs(s.cache) do rule.location = rule.location .. "_decorated" end
      end
      local headers = {}
      for _, pair in ipairs(s.request_headers) do headers[#headers + 1] = { pair[1]:lower(), pair[1], pair[2] } end
      s.request_headers = headers
      if s.waf then
        -- ModSecurity's transaction id: the profile rule keys on `w<profile>.`, the agent on the rest.
        s.waf_tx = "w" .. string.format("%d", s.waf) .. "." .. s.sid .. "."
        for _, rule in ipairs(s.cache) do rule.waf_location = rule.location .. "_waf" end
        -- A set the router looks the extension up in (nil: every request is inspected).
        if s.waf_static and #s.waf_static > 0 then
          local set = {}
          for _, ext in ipairs(s.waf_static) do set[ext] = true end
          s.waf_static = set
        else
          s.waf_static = nil
        end
      end
      s.cache_rule = cache_chain(s.cache)
      _M.sites[#_M.sites + 1] = s
      _M.by_id[s.sid] = s
      for _, h in ipairs(s.hosts) do
        if _M.hosts[h] == nil then _M.hosts[h] = s end
      end
    else
      local id = type(s) == "table" and tonumber(s.id)
      if id then _M.refused[#_M.refused + 1] = string.format("%d", id) end
      ngx.log(ngx.ERR, "rampart: route of site ", tostring(id), " refused: not the shape the agent writes")
    end
  end
  local challenge = require "rampart.challenge"
  challenge.secret = type(data.secret) == "string" and data.secret or ""
  for _, id in ipairs(require("rampart.protect").compile(data, _M.sites)) do
    _M.unprotected[#_M.unprotected + 1] = string.format("%d", id)
  end
  for id, pair in pairs(data.certs or {}) do
    if type(pair) == "table" and is_string(pair.cert, 65536) and is_string(pair.key, 16384) then _M.certs[id] = pair end
  end
  for token, answer in pairs(data.acme or {}) do
    if is_string(token, 128) and token:find("^[A-Za-z0-9_-]+$") and is_string(answer, 300)
      and answer:find("^[A-Za-z0-9_.-]+$") then
      _M.acme[token] = answer
    end
  end
end

--- The site serving `host` (lower case, no port): the exact name, else the longest matching wildcard.
function _M.find(host)
  local hosts = _M.hosts
  local site = hosts[host]
  if site then return site end
  local from = 1
  while true do
    local dot = host:find(".", from, true)
    if not dot then return nil end
    site = hosts["*" .. host:sub(dot)]
    if site then return site end
    from = dot + 1
  end
end

return _M
