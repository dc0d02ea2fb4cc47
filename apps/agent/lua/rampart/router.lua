-- Rewrite phase of every site request: find the site by Host, answer ACME HTTP-01 challenges,
-- redirect to HTTPS, and set the variables the proxy directives read. No rule is parsed here: the
-- routing table was built when the config loaded.
require("rampart.ngx_var").install()
local conditions = require "rampart.conditions"
local hotlink = require "rampart.hotlink"
local urlauth = require "rampart.urlauth"
local protect = require "rampart.protect"
local redirects = require "rampart.redirects"
local respond = require "rampart.respond"
local routes = require "rampart.routes"

local ngx = ngx
local var = ngx.var
local req = ngx.req
local sub = string.sub
local byte = string.byte
local lower = string.lower
local find = string.find
local floor = math.floor
-- Open requests per capped site; the dict exists only while a site of this config has a cap.
local open_requests = ngx.shared.rampart_open

local _M = {}

local ACME_PREFIX = "/.well-known/acme-challenge/"
local ACME_PREFIX_LEN = #ACME_PREFIX

-- Custom request headers that the proxy sends from a variable instead of the client's header.
local VARIABLE_HEADERS = {
  ["host"] = "rampart_host_set",
  ["x-real-ip"] = "rampart_real_ip_set",
  ["x-forwarded-for"] = "rampart_forwarded_for_set",
  ["x-forwarded-proto"] = "rampart_forwarded_proto_set",
  ["accept-encoding"] = "rampart_accept_encoding_set",
}

local function acme_answer(uri)
  if sub(uri, 1, ACME_PREFIX_LEN) ~= ACME_PREFIX then return false end
  local answer = routes.acme[sub(uri, ACME_PREFIX_LEN + 1)]
  if not answer then return false end
  ngx.header["Content-Type"] = "text/plain"
  ngx.print(answer)
  return ngx.exit(200)
end

-- True for a request of a WAF site's static file that cannot carry a payload to the engine: GET or
-- HEAD, no query string, no body (no length header, no chunks, no HTTP/2 data), no upgrade, a raw
-- path of unreserved characters and slashes only (no percent-encoding, quotes, <, =, spaces; no dot
-- segment or hidden name), at most one byte range, and a last segment whose extension is in the
-- site's set. Everything else goes through the WAF. Only variables, plain finds and byte reads: no
-- table is built per request, and no pattern stops LuaJIT from compiling it.
local SLASH, DOT = 47, 46
-- The bytes a static file's raw path may hold: letters, digits, - . _ ~ and /.
local PATH_BYTE = {}
for b = 48, 57 do PATH_BYTE[b] = true end
for b = 65, 90 do PATH_BYTE[b] = true end
for b = 97, 122 do PATH_BYTE[b] = true end
for _, b in ipairs({ 45, DOT, 95, 126, SLASH }) do PATH_BYTE[b] = true end

local function static_file(exts)
  local method = var.request_method
  if method ~= "GET" and method ~= "HEAD" then return false end
  if var.is_args ~= "" then return false end
  local length = var.http_content_length
  if (length and length ~= "0") or var.http_transfer_encoding or var.http_upgrade then return false end
  -- Several byte ranges, or the old Request-Range: the CRS's Range rules (920190, 920200-920202) are
  -- written for downloads of static files (a PDF asked for in many pieces), so these go through the
  -- engine. One range (a resumed download, a video's seek) still skips it.
  local range = var.http_range
  if (range and find(range, ",", 1, true)) or var.http_request_range then return false end
  local uri = var.request_uri
  if byte(uri, 1) ~= SLASH or find(uri, "/.", 1, true) then return false end
  -- A byte loop, not a pattern: LuaJIT compiles it with the rest of the request.
  local dot
  for i = 2, #uri do
    local b = byte(uri, i)
    if not PATH_BYTE[b] then return false end
    if b == DOT then dot = i elseif b == SLASH then dot = nil end
  end
  if not dot or dot == #uri or exts[lower(sub(uri, dot + 1))] ~= true then return false end
  if req.http_version() >= 2 then
    -- HTTP/2 frames a body without a length header: read what came (nothing when the client closed
    -- its side with the headers, which costs no wait) and inspect the request if there is any.
    req.read_body()
    if req.get_body_data() or req.get_body_file() then return false end
  end
  return true
end

-- A request no site serves (no Host, an IP literal, an unknown name, or a site not on this scheme)
-- is the node's (site 0): logged and counted as such, answered with a page after the WAF when the
-- admin's defaults inspect it, or closed without an answer when the admin chose that.
local function unknown_host()
  var.rampart_site_id = "0"
  local unknown = routes.unknown_host
  if unknown.close then return ngx.exit(444) end
  local waf_tx = unknown.waf_tx
  if waf_tx then
    var.rampart_waf_tx = waf_tx .. var.request_id
    return ngx.exec("@rampart_unknown_host_waf")
  end
  return respond.unknown_host()
end

-- The rate of this response: the site's throttle, and a share of its bandwidth cap. The cap is
-- split evenly between the site's requests open on this node when each one starts (counted in a
-- shared dict, released in the log phase): a request keeps the share it started with, so while
-- requests come and go the sum can pass the cap for a while (at most by the shares of requests that
-- started when fewer were open), and each node caps on its own. limit_rate works per connection
-- and needs no lock; a count left by a worker that died only lowers the shares until a restart.
-- A WebSocket is not counted: it would hold a share for hours while mostly idle.
local function limit_rate(site)
  local rate = site.rate
  local cap = site.cap
  if cap and open_requests and not (site.websocket and var.http_upgrade) then
    local open = open_requests:incr(site.sid, 1, 0)
    if open then var.rampart_capped = "1" else open = 1 end
    local share = floor(cap / (open > 1 and open or 1))
    if rate == nil or share < rate then rate = share end
  end
  -- As digits: a number would be written in exponent form past 14 digits, which nginx cannot read.
  if rate then var.limit_rate = string.format("%d", rate < 1 and 1 or rate) end
end

--- The control server's /bandwidth: the requests open per capped site, as JSON.
function _M.open_requests()
  local counts = {}
  for _, sid in ipairs(open_requests:get_keys(0)) do counts[sid] = open_requests:get(sid) end
  ngx.print(require("cjson.safe").encode(counts))
end

--- Log phase of every site request on a config with capped sites: the request no longer counts.
function _M.release()
  if var.rampart_capped == "1" then open_requests:incr(var.rampart_site_id, -1, 1) end
end

-- Sends the request to a named location, with the path a signed URL's signature was taken from:
-- set here, just before `ngx.exec`, as both are C functions that stop LuaJIT's trace (one stop
-- instead of two when `set_uri` ran in the middle of the route).
local function leave(location, uri)
  if uri then ngx.req.set_uri(uri) end
  return ngx.exec(location)
end

function _M.route()
  local scheme = var.scheme
  local http = scheme == "http"
  if http and next(routes.acme) ~= nil then acme_answer(var.uri) end

  local host = var.host
  local site = routes.find(host)
  if not site or (http and not site.http) or (not http and not site.https) then return unknown_host() end
  var.rampart_site_id = site.sid
  -- ACME challenges above are still answered: the site's certificate keeps renewing.
  local suspend = site.suspend
  if suspend then return respond.suspended(suspend) end

  -- The site's canonical name (www or not) and HTTPS, in one redirect.
  local moves = site.redirects
  local moved = moves and redirects.host(moves, host)
  if moved or (http and site.force_https) then
    local to_https = http and site.force_https
    local port = to_https and routes.https_port or tonumber(var.server_port)
    local to_scheme = to_https and "https" or scheme
    local default_port = to_scheme == "https" and 443 or 80
    local name = moved or host
    local authority = port == default_port and name or name .. ":" .. port
    return ngx.redirect(to_scheme .. "://" .. authority .. var.request_uri, 301)
  end

  local guard = site.protect
  local allowed = false
  -- The request as protection read it: the path it read is not asked of nginx again below.
  local request
  if guard then
    request = conditions.request(var)
    local ok, decision = pcall(protect.protected_check, site, guard, request)
    if not ok then
      -- Fail open: a fault in protection must not take the site down.
      ngx.log(ngx.ERR, "rampart: protection of site ", site.sid, " failed: ", decision)
    elseif decision == protect.ALLOW then
      allowed = true
    elseif decision and protect.enforce(site, decision) then
      return
    end
  end

  -- Signed URLs, then hotlink protection, after the protection rules: an ACL allow entry lets a
  -- request past them too. A signature taken off the URL changes the path and the cache key.
  local path = request and request.path
  local signed_cache_path
  -- The path a signature was taken from, set just before the request leaves (see `leave`).
  local signed_uri
  local auth = site.url_auth
  if auth and not allowed then
    local refused, cache_path, served_path, uri = urlauth.check(auth)
    if refused then return urlauth.answer(refused) end
    if cache_path then
      signed_cache_path = cache_path
      path = served_path
      signed_uri = uri
    end
  end
  local links = site.hotlink
  if links and not allowed then
    local refused = hotlink.refused(links, path or var.uri)
    if refused then return hotlink.answer(links, refused) end
  end
  -- Redirects answer here; a rewrite changes the path the cache rules and the origin see.
  if moves then
    -- Read once: the cache rules below look at the same path.
    path = path or var.uri
    local rewritten = redirects.apply(moves, path)
    if rewritten then
      path = rewritten
      signed_uri = nil
    end
  end

  -- Only what differs from the defaults is written: the proxy headers come from maps in nginx.conf
  -- that fall back to $host, $remote_addr, $proxy_add_x_forwarded_for, $scheme and the client's
  -- Accept-Encoding when these are empty.
  local origin_scheme = site.scheme == "follow" and scheme or site.scheme
  if origin_scheme == "https" then var.rampart_origin_scheme_set = "https" end
  -- True once a proxy header differs from nginx's own value: `location /` sends only those.
  local own_headers = false
  local origin_host = site.origin_host
  if origin_host ~= "" then
    var.rampart_ssl_set = origin_host
    var.rampart_host_set = origin_host
    own_headers = true
  end
  -- The edge compresses only for sites with gzip on. The nginx module keeps the gzip filter out of
  -- the others' requests before the router runs (fast.lua's NO_GZIP), and the request keeps its
  -- Accept-Encoding for the cache's variants. Without the module the header comes off the request,
  -- which keeps the filter out, while the origin still receives it (from the variable).
  if not site.gzip and not routes.module_table then
    local accept_encoding = var.http_accept_encoding
    if accept_encoding then
      var.rampart_accept_encoding_set = accept_encoding
      ngx.req.clear_header("Accept-Encoding")
      own_headers = true
    end
  end
  local headers = site.request_headers
  for i = 1, #headers do
    local header = headers[i]
    local name = VARIABLE_HEADERS[header[1]]
    if name then
      var[name] = header[3]
      own_headers = true
    else
      ngx.req.set_header(header[2], header[3])
    end
  end

  -- WAF sites take the `_waf` twin of each location, unless an ACL allow entry decided or the request
  -- is a plain one for a static file (when the site does not inspect those).
  local waf_tx = not allowed and site.waf_tx
  if waf_tx then
    local exts = site.waf_static
    if exts and static_file(exts) then waf_tx = nil end
  end
  if waf_tx then var.rampart_waf_tx = waf_tx .. var.request_id end
  if site.rate or site.cap then limit_rate(site) end
  if site.websocket then
    local upgrade = var.http_upgrade
    if upgrade then
      var.rampart_upgrade = upgrade
      var.rampart_connection = "upgrade"
      return leave(waf_tx and "@rampart_websocket_waf" or "@rampart_websocket", signed_uri)
    end
  end
  if site.has_cache then
    local rule = site.cache_rule(path or var.uri)
    if rule then
      -- The key is `<site>|<host><path and query>`, built by nginx (proxy_cache_key) from these: a
      -- signed URL's is its path and query without the signature, which the variable then holds.
      if signed_cache_path then
        var.rampart_ignore_query = rule.ignore_query and var.uri or signed_cache_path
      elseif rule.ignore_query then
        var.rampart_ignore_query = "1"
      end
      if waf_tx then return leave(rule.waf_location, signed_uri) end
      -- The location names its upstream: the `_https` twin for an origin reached over TLS.
      return leave(origin_scheme == "https" and rule.https_location or rule.location, signed_uri)
    end
  end
  if site.decorated then return leave(waf_tx and "@rampart_decorated_waf" or "@rampart_decorated", signed_uri) end
  if waf_tx then return leave("@rampart_waf", signed_uri) end
  -- `location /` passes to the plain upstream by name with nginx's own header values; the twins
  -- read the header maps of the server.
  if origin_scheme == "https" then return leave("@rampart_https_origin", signed_uri) end
  if own_headers then return leave("@rampart_own_headers", signed_uri) end
  if signed_uri then ngx.req.set_uri(signed_uri) end
end

return _M
