-- The routing table: loaded once in the nginx master (init_by_lua), so every worker shares it
-- copy-on-write, until a swap (below) replaces it in each worker without a reload. The agent writes
-- routes.json already validated; this loader checks the shape again and leaves out (and counts) an
-- entry it cannot use instead of failing the config.
local cjson = require "cjson.safe"
local fast = require "rampart.fast"
local unrolled = require "rampart.unrolled"

local byte = string.byte
local lower = string.lower
local sub = string.sub

-- A fresh, empty routing table: what `build` fills and `install` makes current (and what the module
-- serves before the first load).
local function empty()
  return {
    version = -1, token = "", sites = {}, by_id = {}, hosts = {}, certs = {}, acme = {}, refused = {},
    unprotected = {},
    -- Requests no site serves: closed (444), or a page after the WAF when `waf_tx` is set.
    unknown_host = { close = false, waf_tx = nil },
    -- The fleet's error pages ("404", ..., "waf"): status -> language -> body.
    error_pages = {}, error_language = "zh-CN",
  }
end

local _M = empty()

-- What one routing table is made of: replaced together when a new one is installed.
local FIELDS = {
  "version", "token", "https_port", "sites", "by_id", "hosts", "certs", "acme", "refused", "unprotected",
  "unknown_host", "error_pages", "error_language", "prepared", "secret",
}

-- A version token as the agent writes it: "<version> <apply id>".
local TOKEN = "^%d+ [A-Za-z0-9-]+$"

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

local PAGE_STATUSES = {
  ["400"] = true, ["403"] = true, ["404"] = true, ["500"] = true,
  ["502"] = true, ["503"] = true, ["504"] = true, waf = true,
}

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
  if s.hotlink ~= nil and not require("rampart.hotlink").compile(s.hotlink) then return false end
  if s.url_auth ~= nil and not require("rampart.urlauth").compile(s.url_auth) then return false end
  if s.redirects ~= nil and not require("rampart.redirects").compile(s.redirects) then return false end
  if s.health ~= nil and not require("rampart.healthcheck").compile(s.health) then return false end
  if s.pages ~= nil then
    -- The site's own error pages: HTML by status, answered by the Lua side, never in nginx.conf.
    if type(s.pages) ~= "table" then return false end
    for status, html in pairs(s.pages) do
      if not PAGE_STATUSES[status] or type(html) ~= "string" or #html == 0 or #html > 32768 then return false end
    end
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


-- What every routes.json, and every delta, carries whole: the version, the node's settings, the
-- challenge secret, ACME answers, requests no site serves.
local function read_head(t, data)
  t.version = data.version
  -- What the control server's /version answers once every worker has this table.
  t.token = type(data.token) == "string" and data.token:find(TOKEN) and data.token or ""
  t.https_port = data.https_port
  t.secret = type(data.secret) == "string" and data.secret or ""
  local pages = data.error_pages
  if type(pages) == "table" and pages.default_language == "en-US" then t.error_language = "en-US" end
  local unknown = data.unknown_host
  if type(unknown) == "table" then
    t.unknown_host.close = unknown.action == "close"
    local waf = unknown.waf
    if type(waf) == "number" and waf % 1 == 0 and waf >= 1 and waf <= 89999 and not t.unknown_host.close then
      -- Site 0 in the transaction id: the agent ships the finding as a node-level line.
      t.unknown_host.waf_tx = "w" .. string.format("%d", waf) .. ".0."
    end
  end
  for token, answer in pairs(type(data.acme) == "table" and data.acme or {}) do
    if is_string(token, 128) and token:find("^[A-Za-z0-9_-]+$") and is_string(answer, 300)
      and answer:find("^[A-Za-z0-9_.-]+$") then
      t.acme[token] = answer
    end
  end
end

-- The fleet's error pages, read from the files the agent wrote beside routes.json.
local function read_pages(t, data, dir)
  local pages = data.error_pages
  if type(pages) ~= "table" or type(pages.files) ~= "table" then return end
  for _, status in ipairs({ "400", "403", "404", "500", "502", "503", "504", "waf" }) do
    local files = pages.files[status]
    if type(files) == "table" then
      for _, language in ipairs({ "zh-CN", "en-US" }) do
        local name = files[language]
        if type(name) == "string" and name:match("^errors/[a-zA-Z-]+/[a-z0-9]+%.html$") then
          local page = io.open(dir .. name, "rb")
          if page then
            t.error_pages[status] = t.error_pages[status] or {}
            t.error_pages[status][language] = page:read("*a")
            page:close()
          end
        end
      end
    end
  end
end

-- Compiles one site entry onto the end of `t.sites`, or counts it refused.
local function add_site(t, s)
  if not valid_site(s) then
    local id = type(s) == "table" and tonumber(s.id)
    if id then t.refused[#t.refused + 1] = string.format("%d", id) end
    ngx.log(ngx.ERR, "rampart: route of site ", tostring(id), " refused: not the shape the agent writes")
    return
  end
  -- Read before the entry is compiled in place: whether the fast path serves the site (fast.lua).
  s.fast_flags = fast.flags(s)
  s.sid = string.format("%d", s.id)
  s.has_cache = #s.cache > 0
  -- Responses that need the header filter (HSTS, the site's own headers) take a named location.
  s.decorated = s.hsts == true or #s.response_headers > 0
  -- The twins of each rule's cache location (http-server.ts names them): `_decorated` runs the
  -- header filter (the others add X-Cache-Status in nginx), then `_https` reaches the origin over
  -- TLS, `_waf` inspects first.
  for _, rule in ipairs(s.cache) do
    if s.decorated then rule.location = rule.location .. "_decorated" end
    rule.https_location = rule.location .. "_https"
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
  if s.hotlink then s.hotlink = require("rampart.hotlink").compile(s.hotlink) end
  if s.url_auth then s.url_auth = require("rampart.urlauth").compile(s.url_auth) end
  if s.redirects then s.redirects = require("rampart.redirects").compile(s.redirects) end
  -- The origin health check: each peer gets its request and its keys in the rampart_health zone.
  if s.health then s.health = require("rampart.healthcheck").compile(s.health, s) end
  s.cache_rule = cache_chain(s.cache)
  t.sites[#t.sites + 1] = s
end

-- Gives the sites from `from` on their protection (compiled groups, ACLs and bans of `t.prepared`).
local function protect_sites(t, from)
  local protect = require "rampart.protect"
  for i = from, #t.sites do
    local site = t.sites[i]
    if not protect.attach(t.prepared, site) then t.unprotected[#t.unprotected + 1] = site.sid end
  end
end

-- The lookups by id and by host name. Names are unique across the agent's sites; the first wins.
local function index(t)
  for _, s in ipairs(t.sites) do
    t.by_id[s.sid] = s
    for _, h in ipairs(s.hosts) do
      if t.hosts[h] == nil then t.hosts[h] = s end
    end
  end
end

local function valid_cert(pair)
  return type(pair) == "table" and is_string(pair.cert, 65536) and is_string(pair.key, 16384)
end

-- Compiles a whole routes.json (decoded) into a new table; raises when it cannot (never half a table).
-- Error pages are read from `pages_dir` (the master, at start), or kept from the table before
-- (`pages_dir` nil: a swap, whose tree has the same page files).
local function build(data, pages_dir)
  local t = empty()
  read_head(t, data)
  if pages_dir then read_pages(t, data, pages_dir) else t.error_pages = _M.error_pages end
  for _, s in ipairs(type(data.sites) == "table" and data.sites or {}) do add_site(t, s) end
  t.prepared = require("rampart.protect").prepare(data)
  protect_sites(t, 1)
  index(t)
  for id, pair in pairs(type(data.certs) == "table" and data.certs or {}) do
    if valid_cert(pair) then t.certs[id] = pair end
  end
  return t
end

-- A delta from the table this worker serves: the sites and certificates that changed or went, the
-- head whole; protection, error pages and every other site are taken as they are (already compiled).
-- The agent sends one only when the protection and the rest of the tree are unchanged.
local function build_delta(data)
  local delta = data.delta
  local t = empty()
  read_head(t, data)
  t.error_pages = _M.error_pages
  t.prepared = _M.prepared
  local changed = {}
  for _, id in ipairs(type(delta.removed_sites) == "table" and delta.removed_sites or {}) do
    if type(id) == "number" then changed[string.format("%d", id)] = true end
  end
  local sites = type(delta.sites) == "table" and delta.sites or {}
  for _, s in ipairs(sites) do
    if type(s) == "table" and type(s.id) == "number" then changed[string.format("%d", s.id)] = true end
  end
  for _, s in ipairs(_M.sites) do
    if not changed[s.sid] then t.sites[#t.sites + 1] = s end
  end
  for _, id in ipairs(_M.refused) do
    if not changed[id] then t.refused[#t.refused + 1] = id end
  end
  for _, id in ipairs(_M.unprotected) do
    if not changed[id] then t.unprotected[#t.unprotected + 1] = id end
  end
  local from = #t.sites + 1
  for _, s in ipairs(sites) do add_site(t, s) end
  protect_sites(t, from)
  index(t)
  local gone = {}
  for _, id in ipairs(type(delta.removed_certs) == "table" and delta.removed_certs or {}) do gone[id] = true end
  for id, pair in pairs(_M.certs) do
    if not gone[id] then t.certs[id] = pair end
  end
  for id, pair in pairs(type(delta.certs) == "table" and delta.certs or {}) do
    if valid_cert(pair) then t.certs[id] = pair else t.certs[id] = nil end
  end
  return t
end

-- Makes a built table the one requests see: one assignment per field, nothing in between yields.
local function install(t)
  for _, field in ipairs(FIELDS) do _M[field] = t[field] end
  require("rampart.challenge").secret = t.secret
  require("rampart.protect").install(t.prepared.node)
  -- The nginx module's copy, in the same step: no request runs between the two. `module_table`:
  -- the module holds it (it keeps the gzip filter out of the requests of sites without gzip).
  _M.module_table = _M.fast_path and fast.install(t) or false
end

--- Loads `path` in the nginx master (init_by_lua): what every worker starts with. Raises on an
--- unreadable file (the config must not load half-empty). `fast_path`: the config loads the agent's
--- nginx module, which gets a copy of every table installed (fast.lua).
function _M.load(path, fast_path)
  _M.fast_path = fast_path == true
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  install(build(assert(cjson.decode(text), "routes.json does not parse"), path:match("^(.*/)") or ""))
  -- The table this nginx generation was started with: a swap names it, so that a swap meant for an
  -- earlier generation is not applied by a later one.
  _M.base_token = _M.token
end

-- Routing data without a reload. The agent posts the new routes.json to the control server's /swap,
-- after a first line that holds the delta from the table before (or nothing). The answering worker
-- puts both in shared memory with "<base token>|<new token>"; every worker sees that within one tick
-- of its timer, applies the delta when it serves the table the delta starts from (else builds the
-- whole table), installs the result, then writes the token it now serves under its worker id.
-- /version answers a token only when every worker serves it, so the agent's proof that a change is
-- live holds for swaps as for reloads. A worker the master starts later (one crashed) starts from
-- the master's table and takes the whole new one. The data never passes through a file the workers
-- could read: it holds the certificate keys.
local state = ngx.shared.rampart_routes
local SWAP_KEY = "swap"
local DATA_KEY = "routes"
local DELTA_KEY = "delta"
-- What the agent's swap key is the HMAC of, with the node's secret.
local SWAP_KEY_TEXT = "rampart routing swap"
local TICK = 0.02
local seen_swap = nil

local function report()
  if state and not ngx.worker.exiting() then state:set("w" .. ngx.worker.id(), _M.token) end
end

-- The new table from the delta when it starts from this worker's table, else from the whole data.
local function swapped_table(token)
  local delta = cjson.decode(state:get(DELTA_KEY) or "")
  if type(delta) == "table" and type(delta.delta) == "table" and delta.delta.base == _M.token then
    local ok, t = pcall(build_delta, delta)
    if ok and t.token == token then return t, "delta" end
    ngx.log(ngx.ERR, "rampart: routing delta to ", token, " not applied: ", ok and "another version's data" or t)
  end
  local data = cjson.decode(state:get(DATA_KEY) or "")
  if type(data) ~= "table" then return nil, "routes.json does not parse" end
  local ok, t = pcall(build, data, nil)
  if not ok then return nil, t end
  if t.token ~= token then return nil, "another version's data" end
  return t, "full"
end

local function apply_swap()
  local swap = state:get(SWAP_KEY)
  if swap == seen_swap then return end
  seen_swap = swap
  if not swap then return end
  local base, token = swap:match("^(.-)|(.*)$")
  -- A swap of an earlier generation, or one this worker already serves.
  if base ~= _M.base_token or token == _M.token then return end
  local t, how = swapped_table(token)
  if not t then
    ngx.log(ngx.ERR, "rampart: routing swap to ", token, " failed: ", how)
    return
  end
  install(t)
  require("rampart.protect").apply_unbans()
  require("rampart.tls").warm_later()
  report()
  state:incr("swaps_" .. how, 1, 0)
end

local function tick(premature)
  if premature or ngx.worker.exiting() then return end
  local ok, err = pcall(apply_swap)
  if not ok then ngx.log(ngx.ERR, "rampart: routing swap check failed: ", err) end
end

-- The swap watch runs 50 times a second in a timer, never in a request: kept out of LuaJIT's traces.
-- A trace that starts in it is aborted at its early return (to the timer's pcall), and each abort
-- holds back the hot counter it shares with some other code, perhaps a request's route.
jit.off(apply_swap)
jit.off(tick)

--- init_worker_by_lua: report the table this worker serves, catch up with a swap, watch for the next.
function _M.init_worker()
  if not state then return end
  tick(false)
  report()
  require("rampart.tls").report() -- the certificates the master parsed (tls.warm)
  local ok, err = ngx.timer.every(TICK, tick)
  if not ok then ngx.log(ngx.ERR, "rampart: cannot watch for routing swaps: ", err) end
end

--- The control server's POST /swap?token=<token>: the delta's line (or an empty one), then routes.json.
function _M.swap_request()
  local token = ngx.var.arg_token
  if type(token) == "string" then token = ngx.unescape_uri(token) end
  if not state or ngx.worker.exiting() or ngx.req.get_method() ~= "POST" or type(token) ~= "string"
    or not token:find(TOKEN) then
    return ngx.exit(400)
  end
  -- Only the agent may swap: it proves it knows this node's secret (any local user reaches this port).
  local key = ngx.var.http_x_rampart_swap_key
  if _M.secret == "" or key ~= ngx.encode_base64(ngx.hmac_sha1(_M.secret, SWAP_KEY_TEXT)) then
    return ngx.exit(403)
  end
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  -- The location keeps the body in one buffer in memory; a body nginx wrote to a file is refused.
  if not body then return ngx.exit(413) end
  local newline = body:find("\n", 1, true)
  if not newline then return ngx.exit(400) end
  -- The tables before go first: the zone holds two and a half whole ones, not three.
  state:delete(DATA_KEY)
  state:delete(DELTA_KEY)
  local ok, err = state:safe_set(DATA_KEY, body:sub(newline + 1))
  if ok and newline > 1 then ok, err = state:safe_set(DELTA_KEY, body:sub(1, newline - 1)) end
  if not ok then
    ngx.log(ngx.ERR, "rampart: routing data of ", #body, " bytes does not fit its zone: ", err)
    return ngx.exit(507)
  end
  state:set(SWAP_KEY, _M.base_token .. "|" .. token)
  ngx.print("ok")
end

--- The control server's /swaps: how many swaps this nginx's workers took by delta and whole.
function _M.swap_counts()
  local count = function(how) return state and state:get("swaps_" .. how) or 0 end
  ngx.print(cjson.encode({ delta = count("delta"), full = count("full") }))
end

--- The control server's /version: the token every worker serves, or "mixed" while they differ.
function _M.version_answer()
  local mine = _M.token
  if state then
    for id = 0, ngx.worker.count() - 1 do
      if state:get("w" .. id) ~= mine then
        ngx.print("mixed")
        return
      end
    end
  end
  ngx.print(mine)
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
