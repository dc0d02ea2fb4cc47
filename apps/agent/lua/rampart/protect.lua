-- Protection of one request, after routing: ACL (first matching entry decides; allow skips the
-- rest), the whitelist, bans (manual ones from the master, and those this node's rules set), then
-- the site's rule group: each line whose match holds runs its filter (rate, js, redirect, captcha,
-- delay), and a client that fails gets the line's action (block, ban, log). Everything was compiled
-- when the routing table loaded. `check` returns what to do instead of doing it, so that an internal
-- error can be caught and the request let through (fail-open) by the caller.
local captcha = require "rampart.captcha"
local challenge = require "rampart.challenge"
local cidr = require "rampart.cidr"
local conditions = require "rampart.conditions"
local unrolled = require "rampart.unrolled"

local ngx = ngx
local limits = ngx.shared.rampart_limits
local bans = ngx.shared.rampart_bans

local _M = {}

-- Made below, beside the per-request checks it chains.
local chain_lines

--- What `check` answers when an ACL allow entry decided: nothing after it runs (the WAF included).
_M.ALLOW = { allow = true }

local function reason(kind, action, line, detail)
  local parts = { "kind=" .. kind, "action=" .. action }
  if line then
    parts[#parts + 1] = "group=" .. line.group
    parts[#parts + 1] = "match=" .. line.match_id
    parts[#parts + 1] = "filter=" .. line.filter_id
  end
  if detail and detail ~= "" then parts[#parts + 1] = "detail=" .. detail:gsub(";", ",") end
  return table.concat(parts, ";")
end

local function compile_lines(group)
  local lines = {}
  for i, rule in ipairs(group.rules or {}) do
    local test, err = conditions.compile_all(rule.conditions)
    if not test then return nil, "rule " .. i .. ": " .. err end
    local f = rule.filter or {}
    local kind = f.type
    if kind == "rate" then
      if type(f.requests) ~= "number" or type(f.seconds) ~= "number" then return nil, "rule " .. i .. ": rate" end
    elseif kind == "js" or kind == "redirect" or kind == "captcha" then
      f.valid_seconds = type(f.valid_seconds) == "number" and f.valid_seconds or 3600
    elseif kind == "delay" then
      if type(f.delay_ms) ~= "number" then return nil, "rule " .. i .. ": delay" end
    else
      return nil, "rule " .. i .. ": unknown filter"
    end
    local action = rule.action
    if action ~= "block" and action ~= "ban" and action ~= "log" then return nil, "rule " .. i .. ": action" end
    lines[i] = {
      index = i, test = test, filter = f, action = action, group = group.id, conditions = rule.conditions,
      ban_seconds = tonumber(rule.ban_seconds) or 600, match_id = tonumber(rule.match_id) or 0,
      filter_id = tonumber(rule.filter_id) or 0,
    }
  end
  return lines
end

local function simple_ip(entry)
  local c = type(entry) == "table" and entry.condition
  return type(c) == "table" and c.field == "ip" and c.op == "cidr" and c.negate ~= true and type(c.values) == "table"
end

-- ACL entries in order. Runs of plain address entries with the same action (a blocklist of 1,000
-- ranges entered one by one, say) become one address set: a few hash probes instead of 1,000 tests.
-- Answers the lookup, and the entries as compiled (`texts` of a set, or the `condition`), which
-- fast_protect.lua writes for the nginx module.
local function compile_acl(entries)
  local out = {}
  local i = 1
  while i <= #entries do
    local entry = entries[i]
    if type(entry) ~= "table" or (entry.action ~= "allow" and entry.action ~= "deny") then return nil end
    if simple_ip(entry) then
      local j, texts, index_of = i, {}, {}
      while j <= #entries and simple_ip(entries[j]) and entries[j].action == entry.action do
        for _, value in ipairs(entries[j].condition.values) do
          texts[#texts + 1] = value
          if index_of[value] == nil then index_of[value] = j end
        end
        j = j + 1
      end
      local set = cidr.new(texts)
      if not set then return nil end
      out[#out + 1] = { allow = entry.action == "allow", set = set, index_of = index_of, texts = texts }
      i = j
    else
      local test = conditions.compile(entry.condition)
      if not test then return nil end
      out[#out + 1] = { allow = entry.action == "allow", test = test, index = i, condition = entry.condition }
      i = i + 1
    end
  end
  -- One lookup per entry, written out in order (no loop per request): answers the deciding entry's
  -- number and whether it allows, or nothing.
  local finds = {}
  for k, entry in ipairs(out) do
    local allow = entry.allow
    if entry.set then
      local set, index_of = entry.set, entry.index_of
      finds[k] = function(request)
        local hit = request:in_set(set)
        if hit then return index_of[hit], allow end
        return nil
      end
    else
      local test, index = entry.test, entry.index
      finds[k] = function(request)
        if test(request) then return index, allow end
        return nil
      end
    end
  end
  return unrolled.first_pair(finds), out
end

local function ban_set(list)
  if not list or #list == 0 then return nil end
  local texts, expiry = {}, {}
  for i, ban in ipairs(list) do
    texts[i] = ban.cidr
    expiry[ban.cidr] = math.max(expiry[ban.cidr] or 0, ban.expires_at)
  end
  local set = cidr.new(texts)
  return set and { set = set, expiry = expiry, texts = texts } or nil
end

--- The routing table's protection compiled for its sites to use: rule groups, ACLs and bans by site,
--- and the node-wide part (`install` it with the routes that were compiled with it).
function _M.prepare(data)
  local groups = {}
  for _, group in ipairs(type(data.protection) == "table" and data.protection.rule_groups or {}) do
    if type(group) == "table" and type(group.id) == "number" then
      local lines, err = compile_lines(group)
      if lines then groups[group.id] = chain_lines(lines) else ngx.log(ngx.ERR, "rampart: rule group ", group.id, ": ", err) end
    end
  end
  local protection = type(data.protection) == "table" and data.protection or {}
  local acls = {}
  for _, acl in ipairs(protection.acls or {}) do
    if type(acl) == "table" and type(acl.site_id) == "number" then acls[acl.site_id] = acl.entries end
  end
  local now = ngx.time()
  local site_bans, global = {}, {}
  for _, ban in ipairs(protection.bans or {}) do
    if type(ban) == "table" and type(ban.cidr) == "string" and tonumber(ban.expires_at) and ban.expires_at > now then
      local list = ban.site_id == 0 and global or site_bans[ban.site_id]
      if not list then
        list = {}
        site_bans[ban.site_id] = list
      end
      list[#list + 1] = ban
    end
  end
  return {
    groups = groups, acls = acls, site_bans = site_bans,
    node = { global_bans = ban_set(global), unbans = protection.unbans or {} },
  }
end

--- Gives one site its protection (`site.protect`, nil when nothing applies); false when it does not
--- compile (the site is served without it, and reported).
function _M.attach(prepared, site)
  local p = site.protection
  local acl = prepared.acls[site.id]
  local protect = {
    under_attack = type(p) == "table" and p.under_attack == true,
    -- Keys of this site's node bans and rate counters, started once instead of on every request.
    ban_key = "b:" .. site.sid .. ":",
    rate_keys = {},
  }
  local ok = true
  if acl then
    protect.acl, protect.acl_entries = compile_acl(acl)
    if not protect.acl then ok = false end
  end
  if type(p) == "table" then
    if type(p.whitelist) == "table" and #p.whitelist > 0 then
      protect.whitelist = cidr.new(p.whitelist)
      protect.whitelist_texts = p.whitelist
      if not protect.whitelist then ok = false end
    end
    -- JSON null decodes to cjson.null, which is truthy: only numbers name a group.
    local normal = type(p.rule_group_id) == "number" and p.rule_group_id or nil
    local attack = type(p.attack_rule_group_id) == "number" and p.attack_rule_group_id or nil
    protect.normal = normal and prepared.groups[normal]
    protect.attack = attack and prepared.groups[attack]
    if (normal and not protect.normal) or (attack and not protect.attack) then ok = false end
  end
  protect.bans = ban_set(prepared.site_bans[site.id])
  if ok then
    local active = protect.acl or protect.normal or protect.attack or protect.bans or prepared.node.global_bans
    site.protect = active and protect or nil
  else
    site.protect = nil
    ngx.log(ngx.ERR, "rampart: protection of site ", site.id, " does not compile; served without it")
  end
  return ok
end

--- Compiles the protection of the routing table in place; returns the ids of sites whose protection
--- could not compile (served unprotected, and reported), and what it prepared (`install` its node).
function _M.compile(data, sites)
  local prepared = _M.prepare(data)
  local broken = {}
  for _, site in ipairs(sites) do
    if not _M.attach(prepared, site) then broken[#broken + 1] = site.id end
  end
  return broken, prepared
end

--- Makes the node-wide part of a compiled routing table the one requests see.
function _M.install(node)
  _M.global_bans = node.global_bans
  _M.unbans = node.unbans
end

--- Drops bans this node set for addresses the master has since unbanned (each worker, at start).
function _M.apply_unbans()
  for _, unban in ipairs(_M.unbans or {}) do
    local until_time = type(unban) == "table" and tonumber(unban["until"])
    if until_time and type(unban.ip) == "string" and until_time > ngx.time() then
      bans:delete("b:" .. tostring(unban.site_id) .. ":" .. unban.ip)
      bans:delete("b:0:" .. unban.ip)
    end
  end
end

local function banned_by(list, request)
  if not list then return nil end
  local hit = request:in_set(list.set)
  if hit and list.expiry[hit] > ngx.time() then return hit end
  return nil
end

local function deny(kind, action, line, detail, banned)
  return { status = 403, reason = reason(kind, action, line, detail), banned = banned }
end

local function read_path(var) return var.uri end

-- Runs one line's filter; returns nil when the client passes, else what failing means.
local function run_filter(site, protect, line, request, ip)
  local f = line.filter
  local kind = f.type
  if kind == "rate" then
    -- The counter's key is `r:<site>:<group>:<line>:<address>[:<path>]`; its start is made once.
    local prefixes = protect.rate_keys
    local prefix = prefixes[line]
    if not prefix then
      prefix = "r:" .. site.sid .. ":" .. line.group .. ":" .. line.index .. ":"
      prefixes[line] = prefix
    end
    local key = prefix .. ip
    if f.per == "ip_url" then key = key .. ":" .. request:get("path", read_path) end
    local count = limits:incr(key, 1, 0, f.seconds)
    if count and count > f.requests then return "rate", f.requests .. " requests in " .. f.seconds .. " s" end
    return nil
  elseif kind == "delay" then
    return "delay", f.delay_ms .. " ms"
  end
  local passed = challenge.passed(kind, site.sid, ip)
  if passed then return nil end
  return "challenge", passed == false and "failed " .. kind or kind
end

-- What a line whose filter the client failed decides: a decision, or nil and the log reason to
-- keep (the first logged line's).
local function decide(site, line, ip, failed, detail, logged)
  if failed == "delay" then
    return { delay = line.filter.delay_ms / 1000, reason = reason("delay", "delay", line, detail) }
  elseif line.action == "log" then
    return nil, logged or reason(failed, "log", line, detail)
  elseif failed == "challenge" and detail == line.filter.type then
    -- No pass yet: the challenge itself is the answer.
    return { challenge = line.filter, reason = reason("challenge", "challenge", line, detail) }
  elseif line.action == "ban" then
    bans:set("b:" .. site.sid .. ":" .. ip, line.group, line.ban_seconds)
    return deny(failed, "ban", line, detail .. ", banned " .. line.ban_seconds .. " s", true)
  end
  return deny(failed, "block", line, detail)
end

-- One line: nil when its match does not hold or the client passes its filter, else what failing
-- decides, and the log reason carried on.
local function run_line(line, site, protect, request, ip, logged)
  if not line.test(request) then return nil, logged end
  local failed, detail = run_filter(site, protect, line, request, ip)
  if not failed then return nil, logged end
  return decide(site, line, ip, failed, detail, logged)
end

local function after_lines(logged)
  if logged then return { reason = logged } end
  return nil
end

-- The lines of a group, top to bottom, written out once per group (no loop per request): the first
-- decision ends them, a logged failure is carried on.
chain_lines = function(lines)
  lines.run = unrolled.steps(lines, run_line, after_lines)
  return lines
end

--- What protection makes of this request (a conditions.request): nil to go on, `_M.ALLOW` (an ACL allow entry: go on and skip
--- every later check), or {status, reason, challenge?, delay?}.
function _M.check(site, protect, request)
  local acl = protect.acl
  if acl then
    local index, allow = acl(request)
    if index then
      if allow then return _M.ALLOW end
      return deny("acl", "deny", nil, "entry " .. index)
    end
  end
  if protect.whitelist and request:in_set(protect.whitelist) then return nil end
  local ip = request:addr()
  local hit = banned_by(_M.global_bans, request) or banned_by(protect.bans, request)
  if hit then return deny("ban", "banned", nil, "manual " .. hit, true) end
  if bans:get(protect.ban_key .. ip) then return deny("ban", "banned", nil, "", true) end

  local lines = protect.under_attack and protect.attack or protect.normal
  if not lines then return nil end
  return (lines.run(site, protect, request, ip))
end

--- `check` for the router's protected call: LuaJIT cannot end a compiled `check` by returning into
--- pcall's frame, and gives it up; returning into this one it can.
function _M.protected_check(site, protect, request)
  local decision = _M.check(site, protect, request)
  return decision
end

--- Carries out a decision of `check` (outside the protected call: these end or pause the request);
--- true when the request has been answered.
function _M.enforce(site, decision)
  ngx.var.rampart_block_reason = decision.reason
  if decision.delay then
    ngx.sleep(decision.delay)
    return
  end
  if decision.challenge then
    local f = decision.challenge
    local ip = ngx.var.remote_addr
    if f.type == "redirect" then
      challenge.redirect(site.sid, ip, f.valid_seconds)
      return true
    elseif f.type == "captcha" then
      captcha.serve(site.sid, ip, f.valid_seconds)
      return true
    end
    ngx.status = 503
    ngx.header["Content-Type"] = "text/html; charset=utf-8"
    ngx.header["Cache-Control"] = "no-store"
    ngx.print(challenge.js_page(site.sid, ip, f.valid_seconds))
    ngx.exit(503)
    return true
  end
  if decision.status then
    ngx.status = decision.status
    ngx.header["Content-Type"] = "text/html; charset=utf-8"
    ngx.header["Cache-Control"] = "no-store"
    ngx.print(challenge.denied_page(decision.banned))
    ngx.exit(decision.status)
    return true
  end
end

return _M
