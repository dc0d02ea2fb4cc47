-- Header filter of every site response: HSTS, the cache status, and the site's own response headers.
local routes = require "rampart.routes"

local ngx = ngx
local var = ngx.var
local header = ngx.header
local find = string.find

local _M = {}

local HSTS = "max-age=31536000"

function _M.headers()
  local site = routes.by_id[var.rampart_site_id]
  if not site then return end
  if site.hsts and var.scheme == "https" then header["Strict-Transport-Security"] = HSTS end
  if site.has_cache then
    local status = var.upstream_cache_status
    if status and status ~= "" then header["X-Cache-Status"] = status end
  end
  for _, pair in ipairs(site.response_headers) do header[pair[1]] = pair[2] end
end

--- The visitor's first language when it is Chinese or English, else the admin's default (/config/error).
local function language()
  local accepted = (var.http_accept_language or ""):match("^%s*(%a%a)")
  accepted = accepted and accepted:lower()
  return accepted == "zh" and "zh-CN" or accepted == "en" and "en-US" or routes.error_language
end

--- The site's own page for `status`, else the admin's (/config/error) in the visitor's first language,
--- else the default language's, else the other's; nil when there is none (the built-in page then).
local function custom_page(status)
  -- The site's own page first (site 0, the node's requests, has none).
  local site = routes.by_id[var.rampart_site_id]
  local own = site and site.pages and site.pages[status]
  if own then return own end
  local pages = routes.error_pages[status]
  if not pages then return nil end
  return pages[language()] or pages[routes.error_language] or pages["zh-CN"] or pages["en-US"]
end

-- A suspension is not the visitor's fault and ends when the owner renews: 503 with Retry-After tells
-- browsers, caches and crawlers it is temporary (search engines keep the site); 402 has no agreed
-- meaning for clients and is treated like any other 4xx.
local SUSPENDED_STATUS = 503
local SUSPENDED_RETRY_AFTER = "3600"

--- Every request of a site whose package is expired, suspended or past its traffic (`reason`), under
--- the operator's `suspend` policy: a page saying so, in the visitor's language, never cached.
function _M.suspended(reason)
  local challenge = require "rampart.challenge"
  local t = challenge.text_of(language())
  ngx.status = SUSPENDED_STATUS
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  header["Retry-After"] = SUSPENDED_RETRY_AFTER
  -- The page is one of the site's HTTPS answers: its HSTS still holds (no header filter runs here).
  local site = routes.by_id[var.rampart_site_id]
  if site and site.hsts and var.scheme == "https" then header["Strict-Transport-Security"] = HSTS end
  ngx.print(challenge.page(t.suspended, t["suspended_" .. reason]))
  return ngx.exit(SUSPENDED_STATUS)
end

--- nginx's own error `status` (an origin down, ...), sent here by error_page: the admin's page.
function _M.error_page(status)
  local page = custom_page(status)
  ngx.status = tonumber(status)
  if not page then return ngx.exit(ngx.status) end
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  ngx.print(page)
end

--- The page of a request the WAF refused (ModSecurity answered 403), in the visitor's language.
function _M.waf_denied()
  ngx.status = 403
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  ngx.print(custom_page("waf") or require("rampart.challenge").denied_page(false))
end

--- The page of a request no site serves: 400 without a Host header (HTTP/1.0; nginx itself refuses
--- HTTP/1.1 without one), 404 for a Host no site serves. Never cached, in the visitor's language.
-- A name a site could have: letters, digits, hyphens, dots (and underscores, which some resolvers
-- allow), or an IPv6 literal in brackets. nginx has already lowercased $host and taken off the port.
local function valid_host(host)
  return find(host, "^[%w%-%._]+$") ~= nil or find(host, "^%[[%x:%.]+%]$") ~= nil
end

function _M.unknown_host()
  local challenge = require "rampart.challenge"
  local t = challenge.text()
  -- No Host, or one that cannot name a site (a percent sign, a control character): a bad request.
  local status = (var.http_host and valid_host(var.host)) and 404 or 400
  ngx.status = status
  header["Content-Type"] = "text/html; charset=utf-8"
  header["Cache-Control"] = "no-store"
  local custom = custom_page(tostring(status))
  if custom then
    ngx.print(custom)
  elseif status == 400 then
    ngx.print(challenge.page(t.no_host, var.http_host and t.bad_host_body or t.no_host_body))
  else
    ngx.print(challenge.page(t.unknown_host, t.unknown_host_body))
  end
  return ngx.exit(status)
end

return _M
