-- Active health checks of site origins. One timer per node (worker 0's) walks the routing table
-- every second and sends each origin of a site with a check an HTTP request when its interval is
-- due; the states live in the rampart_health zone, so every worker's balancer skips an origin that
-- failed `fall` checks in a row until it answers `rise` in a row. Nothing here runs per request:
-- the balancer reads one key of the zone per request of a site with a check (how many of its
-- origins are down), and one per origin only while some are.
local ngx = ngx
local dict = ngx.shared.rampart_health

local TICK = 1
-- Checks in flight at once; the rest wait for the next tick.
local MAX_RUNNING = 64
local USER_AGENT = "Rampart-Health-Check"

local _M = {}

-- Worker 0's bookkeeping: when each origin is next due, and which checks are in flight.
local due = {}
local running = {}
local in_flight = 0

local PATH = "^/[A-Za-z0-9._~!*+,=:@%%/-]*$"
local QUERY = "^[A-Za-z0-9._~!*+,=:@%%/&-]*$"
local HOST = "^[A-Za-z0-9.-]+$"

local function count(v, low, high)
  return type(v) == "number" and v % 1 == 0 and v >= low and v <= high
end

-- The path and query as the agent wrote them (the master's rules allow no more).
local function valid_path(path)
  if type(path) ~= "string" or #path > 1024 then return false end
  local q = path:find("?", 1, true)
  if not q then return path:find(PATH) ~= nil end
  return path:sub(1, q - 1):find(PATH) ~= nil and path:sub(q + 1):find(QUERY) ~= nil
end

--- A site's check as routes.json has it, compiled onto its peers (their request and zone keys);
--- nil when it is not the shape the agent writes.
function _M.compile(hc, site)
  if type(hc) ~= "table" or not valid_path(hc.path) then return nil end
  if type(hc.host) ~= "string" or #hc.host > 253 or (hc.host ~= "" and not hc.host:find(HOST)) then return nil end
  if not count(hc.interval, 1, 3600) or not count(hc.timeout, 1, 60) or not count(hc.fall, 1, 10)
    or not count(hc.rise, 1, 10) or type(hc.tls) ~= "boolean" or type(hc.statuses) ~= "table"
    or #hc.statuses == 0 or #hc.statuses > 16 then
    return nil
  end
  local statuses = {}
  for _, status in ipairs(hc.statuses) do
    if not count(status, 100, 599) then return nil end
    statuses[status] = true
  end
  local compiled = {
    interval = hc.interval, timeout = hc.timeout * 1000, fall = hc.fall, rise = hc.rise, tls = hc.tls,
    statuses = statuses, host = hc.host,
    -- Zone entries outlive a few missed rounds, then go (a check turned off, an origin removed).
    ttl = hc.interval * 3 + hc.timeout + 10,
  }
  if site then
    local sid = string.format("%d", site.id)
    compiled.count_key = "n|" .. sid
    for _, peer in ipairs(site.peers) do
      local endpoint = sid .. "|" .. peer.ip .. "|" .. string.format("%d", peer.port)
      peer.health_down = "d|" .. endpoint
      peer.health_state = "s|" .. endpoint
      -- An IPv6 address goes in brackets, to connect to as in a Host header.
      local address = peer.ip:find(":", 1, true) and ("[" .. peer.ip .. "]") or peer.ip
      local host = hc.host ~= "" and hc.host or address
      peer.health_connect = address
      peer.health_sni = hc.host ~= "" and hc.host or nil
      peer.health_request = "GET " .. hc.path .. " HTTP/1.1\r\nHost: " .. host .. "\r\nUser-Agent: " .. USER_AGENT
        .. "\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    end
  end
  return compiled
end

-- One check: connect (TLS when the site reaches its origins over HTTPS), ask, read the status line.
local function check(hc, peer)
  local sock = ngx.socket.tcp()
  sock:settimeouts(hc.timeout, hc.timeout, hc.timeout)
  local ok, err = sock:connect(peer.health_connect, peer.port)
  if not ok then return nil, "connect: " .. tostring(err) end
  if hc.tls then
    -- Like the proxy, which does not verify origin certificates either.
    local session
    session, err = sock:sslhandshake(nil, peer.health_sni, false)
    if not session then
      sock:close()
      return nil, "tls: " .. tostring(err)
    end
  end
  ok, err = sock:send(peer.health_request)
  if not ok then
    sock:close()
    return nil, "send: " .. tostring(err)
  end
  local line
  line, err = sock:receive("*l")
  sock:close()
  if not line then return nil, "receive: " .. tostring(err) end
  local status = tonumber(line:match("^HTTP/%d%.%d (%d%d%d)"))
  if not status then return nil, "not an HTTP answer" end
  if not hc.statuses[status] then return nil, "status " .. status end
  return true
end

-- State in the zone: "<up 1|0>|<good in a row>|<failed in a row>|<checked at>|<error>".
local function read_state(key)
  local text = dict:get(key)
  if not text then return true, 0, 0, 0, "" end
  local up, good, bad, at, err = text:match("^([01])|(%d+)|(%d+)|(%d+)|(.*)$")
  if not up then return true, 0, 0, 0, "" end
  return up == "1", tonumber(good), tonumber(bad), tonumber(at), err
end

local function record(site, hc, peer, passed, why)
  local up, good, bad = read_state(peer.health_state)
  if passed then
    good, bad, why = good + 1, 0, ""
    if not up and good >= hc.rise then up = true end
  else
    good, bad = 0, bad + 1
    if up and bad >= hc.fall then up = false end
  end
  if #why > 200 then why = why:sub(1, 200) end
  dict:set(peer.health_state, (up and "1" or "0") .. "|" .. good .. "|" .. bad .. "|" .. ngx.time() .. "|" .. why,
    hc.ttl)
  if up then dict:delete(peer.health_down) else dict:set(peer.health_down, true, hc.ttl) end
  -- What the balancer reads first: how many of the site's origins are down.
  local down = 0
  for _, p in ipairs(site.peers) do
    if p.health_down and dict:get(p.health_down) then down = down + 1 end
  end
  dict:set(hc.count_key, down, hc.ttl)
end

local function probe(premature, site, hc, peer, key)
  if not premature then
    local ok, passed, why = pcall(check, hc, peer)
    if not ok then passed, why = nil, "check failed: " .. tostring(passed) end
    local recorded, err = pcall(record, site, hc, peer, passed == true, why or "")
    if not recorded then ngx.log(ngx.ERR, "rampart: health check state not kept: ", err) end
  end
  running[key] = nil
  in_flight = in_flight - 1
end

local function tick(premature)
  if premature or ngx.worker.exiting() then return end
  local now = ngx.now()
  local seen = {}
  for _, site in ipairs(require("rampart.routes").sites) do
    local hc = site.health
    if hc then
      for _, peer in ipairs(site.peers) do
        local key = peer.health_state
        seen[key] = true
        if not running[key] and (due[key] or 0) <= now and in_flight < MAX_RUNNING then
          local ok, err = ngx.timer.at(0, probe, site, hc, peer, key)
          if ok then
            due[key] = now + hc.interval
            running[key] = true
            in_flight = in_flight + 1
          else
            ngx.log(ngx.ERR, "rampart: cannot start a health check: ", err)
          end
        end
      end
    end
  end
  for key in pairs(due) do
    if not seen[key] then due[key] = nil end
  end
end

--- init_worker_by_lua: worker 0 runs the node's checks (nil: a single process, which runs them too).
function _M.init_worker()
  local id = ngx.worker.id()
  if not dict or (id ~= nil and id ~= 0) then return end
  local ok, err = ngx.timer.every(TICK, tick)
  if not ok then ngx.log(ngx.ERR, "rampart: cannot start the origin health checks: ", err) end
end

--- The control server's /health-checks: each checked origin's state, for the agent's status report.
function _M.report()
  local cjson = require "cjson.safe"
  local items = {}
  if not dict then return ngx.print("[]") end
  for _, site in ipairs(require("rampart.routes").sites) do
    if site.health then
      for _, peer in ipairs(site.peers) do
        local up, _, _, at, err = read_state(peer.health_state)
        items[#items + 1] = cjson.encode({
          site_id = site.id, address = peer.ip, port = peer.port, up = up, checked_at = at, error = err,
        })
      end
    end
  end
  ngx.print("[", table.concat(items, ","), "]")
end

return _M
