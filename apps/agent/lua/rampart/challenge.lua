-- Challenges a client passes once and then carries as a cookie signed with this node's secret,
-- bound to the client address, the site and an expiry: a JavaScript proof of work (curl cannot run
-- it), a 302 redirect that sets the cookie (clients without a cookie jar loop) and an image captcha
-- (captcha.lua). The pages they show are built here.
local bit = require "bit"

local ngx = ngx
local byte = string.byte
local fmt = string.format
local tonumber = tonumber

local _M = { secret = "" }

-- Leading zero bits the proof of work needs: about 4,000 hashes, a few milliseconds in a browser.
local WORK_BITS = 12

--- base64url of HMAC-SHA1 over the parts joined by `|`, keyed with this node's secret.
local function mac(...)
  local text = table.concat({ ... }, "|")
  return (ngx.encode_base64(ngx.hmac_sha1(_M.secret, text)):gsub("[+/=]", { ["+"] = "-", ["/"] = "_", ["="] = "" }))
end
_M.mac = mac

-- 32-bit FNV-1a, the same in the page's script.
local function fnv1a(text)
  local h = 2166136261
  for i = 1, #text do
    h = bit.bxor(h, byte(text, i))
    h = bit.tobit(h * 403 + bit.lshift(h, 24))
  end
  return h
end
_M.fnv1a = fnv1a

--- A signed pass: `expires.mac`.
function _M.sign(kind, site_id, ip, expires)
  return expires .. "." .. mac(kind, site_id, ip, expires)
end

-- true for a valid pass, nil for an expired one (challenge again), false for a forged one.
local function valid_pass(kind, site_id, ip, value)
  if type(value) ~= "string" or #value > 200 then return false end
  local expires, signature = value:match("^(%d+)%.([A-Za-z0-9_-]+)$")
  if not expires or signature ~= mac(kind, site_id, ip, expires) then return false end
  if tonumber(expires) < ngx.time() then return nil end
  return true
end

--- Whether the request carries a valid pass for `kind` ("js", "redirect", "captcha"): nil when it
--- carries none or an expired one, false when it is forged.
function _M.passed(kind, site_id, ip)
  local cookie = ngx.var["cookie_rampart_" .. kind]
  if not cookie then return nil end
  if kind == "js" then
    local pass, nonce = cookie:match("^([%w._-]+):(%d+)$")
    if not pass or #nonce > 12 then return false end
    local valid = valid_pass("js", site_id, ip, pass)
    if not valid then return valid end
    return bit.rshift(fnv1a(pass .. ":" .. nonce), 32 - WORK_BITS) == 0
  end
  return valid_pass(kind, site_id, ip, cookie)
end

local function chinese()
  local language = ngx.var.http_accept_language
  return language ~= nil and language:find("zh", 1, true) ~= nil
end

local TEXT = {
  en = {
    title = "Checking your browser",
    wait = "One moment: your browser is being checked. This page reloads by itself.",
    script = "Please enable JavaScript to continue.",
    denied = "Access denied",
    denied_body = "This request was blocked by the site's protection rules.",
    banned_body = "Too many requests from your address: it is blocked for a while.",
    captcha_title = "Are you human?",
    captcha_prompt = "Type the five digits you see in the image to continue.",
    captcha_wrong = "Wrong answer, or the image expired: try again with this one.",
    captcha_image = "Five digits to type",
    captcha_label = "Digits in the image",
    captcha_submit = "Continue",
    captcha_new = "New image",
    unknown_host = "No site here",
    unknown_host_body = "No site is served at this address under this name.",
    no_host = "Bad request",
    no_host_body = "The request did not name a site (it has no Host header).",
    bad_host_body = "The request's Host header is not a valid site name.",
    suspended = "Service suspended",
    suspended_expired = "The service for this site is suspended: its package has expired.",
    suspended_suspended = "The service for this site is suspended by the provider.",
    suspended_traffic = "The service for this site is suspended: its traffic for this month is used up.",
  },
  zh = {
    title = "正在检查您的浏览器",
    wait = "请稍候：正在检查您的浏览器，页面将自动刷新。",
    script = "请启用 JavaScript 后继续。",
    denied = "访问被拒绝",
    denied_body = "此请求已被站点的防护规则拦截。",
    banned_body = "您的地址请求过多，已被暂时封禁。",
    captcha_title = "请完成人机验证",
    captcha_prompt = "请输入图片中的五位数字后继续。",
    captcha_wrong = "答案错误或图片已过期，请按这张新图片重试。",
    captcha_image = "需要输入的五位数字",
    captcha_label = "图片中的数字",
    captcha_submit = "继续",
    captcha_new = "换一张",
    unknown_host = "此处没有站点",
    unknown_host_body = "此地址上没有以该名称提供服务的站点。",
    no_host = "错误的请求",
    no_host_body = "该请求未指明站点（缺少 Host 请求头）。",
    bad_host_body = "该请求的 Host 请求头不是有效的站点名称。",
    suspended = "服务已暂停",
    suspended_expired = "此站点的服务已暂停：其套餐已到期。",
    suspended_suspended = "此站点的服务已被服务商暂停。",
    suspended_traffic = "此站点的服务已暂停：本月流量已用完。",
  },
}

--- The texts in the client's language (zh-CN when Accept-Language names Chinese, else en-US).
function _M.text()
  return chinese() and TEXT.zh or TEXT.en
end

--- The texts of "zh-CN" or "en-US".
function _M.text_of(language)
  return language == "zh-CN" and TEXT.zh or TEXT.en
end

--- A self-contained page: title, one paragraph, then `extra` (a script, a form) as-is.
local function page(title, body, extra)
  return fmt(
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
      .. '<meta name="robots" content="noindex"><title>%s</title><style>body{font:16px system-ui,sans-serif;'
      .. 'margin:15vh auto;max-width:34em;padding:0 1em;color:#222}h1{font-size:1.4em}</style></head>'
      .. "<body><h1>%s</h1><p>%s</p>%s</body></html>",
    title, title, body, extra or ""
  )
end
_M.page = page

--- This request's URL to send the client back to; leading slashes collapse to one, so that `//host`
--- never leaves the site as a scheme-relative redirect.
function _M.same_url()
  return (ngx.var.request_uri:gsub("^[/\\]+", "/"))
end

--- The proof-of-work page: finds a nonce, stores `pass:nonce` as the cookie and reloads.
function _M.js_page(site_id, ip, valid_seconds)
  local t = chinese() and TEXT.zh or TEXT.en
  local pass = _M.sign("js", site_id, ip, ngx.time() + valid_seconds)
  local script = fmt(
    "<noscript>%s</noscript><script>(function(){var c=%q,b=%d,n=0;function f(s){var h=2166136261;"
      .. "for(var i=0;i<s.length;i++){h^=s.charCodeAt(i);h=Math.imul(h,16777619)>>>0}return h}"
      .. "while((f(c+':'+n)>>>(32-b))!==0)n++;document.cookie='rampart_js='+c+':'+n+';path=/;max-age=%d;SameSite=Lax';"
      .. "location.reload()})()</script>",
    t.script, pass, WORK_BITS, valid_seconds
  )
  return page(t.title, t.wait, script)
end

--- The redirect challenge: the same URL again, with the pass as a cookie.
function _M.redirect(site_id, ip, valid_seconds)
  local pass = _M.sign("redirect", site_id, ip, ngx.time() + valid_seconds)
  ngx.header["Set-Cookie"] = "rampart_redirect=" .. pass .. "; Path=/; Max-Age=" .. valid_seconds .. "; HttpOnly; SameSite=Lax"
  ngx.header["Cache-Control"] = "no-store"
  ngx.redirect(_M.same_url(), 302)
end

function _M.denied_page(banned)
  local t = chinese() and TEXT.zh or TEXT.en
  return page(t.denied, banned and t.banned_body or t.denied_body)
end

return _M
