-- Picks the origin of each proxy attempt: smooth weighted round robin (round_robin is every weight
-- 1), or a hash of the client address (ip_hash, the first three octets of IPv4 like nginx). Passive
-- failover as nginx's max_fails=3 fail_timeout=10s: a peer that failed 3 times within 10 s is
-- skipped for the rest of those 10 s, on every worker; a failed attempt is retried on another peer,
-- backups only when no primary is left. A site with a health check (healthcheck.lua) also skips the
-- origins its checks took out; when every one is out, all of them are used rather than none.
local balancer = require "ngx.balancer"
local routes = require "rampart.routes"

local ngx = ngx
local var = ngx.var
local failures = ngx.shared.rampart_peers
local health = ngx.shared.rampart_health

local MAX_FAILS = 3
local FAIL_TIMEOUT = 10
local MAX_TRIES = 3

local _M = {}

-- Current weights of the smooth round robin, per site (the routing table's entry, so a new table
-- starts afresh) and peer index, in this worker.
local current = setmetatable({}, { __mode = "k" })

local function fail_key(site, peer) return site.sid .. "|" .. peer.ip .. "|" .. peer.port end

-- `check_down`: skip peers that failed lately; `sick` (with it): skip those the health checks took out.
local function usable(site, peer, tried, check_down, sick)
  if tried[peer] then return false end
  if check_down then
    if sick and health:get(peer.health_down) then return false end
    if (failures:get(fail_key(site, peer)) or 0) >= MAX_FAILS then return false end
  end
  return true
end

local function round_robin(site, backup, tried, check_down, sick)
  local weights = current[site]
  if not weights then
    weights = {}
    current[site] = weights
  end
  local best, best_index, total = nil, nil, 0
  for i, peer in ipairs(site.peers) do
    if (peer.backup == true) == backup and usable(site, peer, tried, check_down, sick) then
      local weight = site.balance == "round_robin" and 1 or peer.weight
      local w = (weights[i] or 0) + weight
      weights[i] = w
      total = total + weight
      if not best or w > weights[best_index] then best, best_index = peer, i end
    end
  end
  if best then weights[best_index] = weights[best_index] - total end
  return best
end

local function hash_key(addr)
  local a, b, c = addr:match("^(%d+)%.(%d+)%.(%d+)%.%d+$")
  if a then return a .. "." .. b .. "." .. c end
  return addr
end

local function ip_hash(site, tried, check_down, sick)
  local peers = site.peers
  local n = #peers
  local start = ngx.crc32_short(hash_key(var.remote_addr)) % n
  for step = 0, n - 1 do
    local peer = peers[(start + step) % n + 1]
    if usable(site, peer, tried, check_down, sick) then return peer end
  end
  return nil
end

local function choose(site, tried, sick)
  if site.balance == "ip_hash" then return ip_hash(site, tried, true, sick) or ip_hash(site, tried, false) end
  return round_robin(site, false, tried, true, sick)
    or round_robin(site, true, tried, true, sick)
    or round_robin(site, false, tried, false)
    or round_robin(site, true, tried, false)
end

function _M.pick()
  local site = routes.by_id[var.rampart_site_id]
  if not site then return ngx.exit(502) end
  local peers = site.peers
  if #peers == 1 then
    -- One origin: nothing to choose, no other peer to retry on (nginx never marks it down either).
    local peer = peers[1]
    local ok, err = balancer.set_current_peer(peer.ip, peer.port)
    if not ok then
      ngx.log(ngx.ERR, "rampart: cannot use origin ", peer.ip, ":", peer.port, ": ", err)
      return ngx.exit(502)
    end
    return
  end
  local ctx = ngx.ctx
  local state = ctx.rampart_balance
  if not state then
    -- One read for a site with a health check: whether any of its origins is out at all (no zone:
    -- a config older than the checks, started with newer routing data).
    local hc = site.health
    state = { tried = {}, sick = hc ~= nil and health ~= nil and (health:get(hc.count_key) or 0) > 0 }
    ctx.rampart_balance = state
    local tries = #site.peers < MAX_TRIES and #site.peers or MAX_TRIES
    if tries > 1 then balancer.set_more_tries(tries - 1) end
  elseif state.last then
    -- A retry: the previous attempt failed (connect error, timeout or a 502/503/504 answer).
    failures:incr(fail_key(site, state.last), 1, 0, FAIL_TIMEOUT)
  end
  local peer = choose(site, state.tried, state.sick)
  if not peer then return ngx.exit(502) end
  state.tried[peer] = true
  state.last = peer
  local ok, err = balancer.set_current_peer(peer.ip, peer.port)
  if not ok then
    ngx.log(ngx.ERR, "rampart: cannot use origin ", peer.ip, ":", peer.port, ": ", err)
    return ngx.exit(502)
  end
end

return _M
