-- The origin health check's loader: what routes.json may hold, and the request it becomes (run by
-- apps/agent/test/lua.test.ts).
local healthcheck = require "rampart.healthcheck"

local function check(overrides)
  local hc = {
    path = "/healthz?full=1&x=y", host = "", statuses = { 200, 204 }, interval = 5, timeout = 2, fall = 3, rise = 2,
    tls = false,
  }
  for key, value in pairs(overrides or {}) do hc[key] = value end
  return hc
end

local site = {
  id = 12,
  peers = { { ip = "127.0.0.1", port = 8080 }, { ip = "::1", port = 8443 } },
}
local compiled = assert(healthcheck.compile(check({ host = "origin.example.com" }), site), "a good check compiles")
assert(compiled.count_key == "n|12", "the site's count of origins out has its key")
assert(compiled.statuses[200] and compiled.statuses[204] and not compiled.statuses[500], "statuses become a set")
assert(compiled.timeout == 2000, "the timeout in milliseconds")
local v4, v6 = site.peers[1], site.peers[2]
assert(v4.health_down == "d|12|127.0.0.1|8080" and v4.health_state == "s|12|127.0.0.1|8080", "each origin's keys")
assert(v4.health_request == "GET /healthz?full=1&x=y HTTP/1.1\r\nHost: origin.example.com\r\n"
  .. "User-Agent: Rampart-Health-Check\r\nAccept: */*\r\nConnection: close\r\n\r\n", "the request sent")
assert(v6.health_connect == "[::1]", "an IPv6 origin is connected to in brackets")

-- Without a Host of its own (the site's name is a wildcard), the origin's address is the Host.
healthcheck.compile(check(), site)
assert(v6.health_request:find("\r\nHost: [::1]\r\n", 1, true), "the address as the Host")
assert(v4.health_sni == nil, "and no TLS name")

local refused = {
  check({ path = "healthz" }),
  check({ path = "/a b" }),
  check({ path = "/a\r\nX: 1" }),
  check({ path = "/a?b#c" }),
  check({ path = "/" .. string.rep("a", 1024) }),
  check({ host = "a\"b" }),
  check({ host = "a b" }),
  check({ host = "a\r\nX: 1" }),
  check({ statuses = {} }),
  check({ statuses = { 99 } }),
  check({ statuses = { 200.5 } }),
  check({ interval = 0 }),
  check({ timeout = 61 }),
  check({ fall = 11 }),
  check({ rise = 0 }),
  check({ tls = "yes" }),
  "not a table",
}
for i, hc in ipairs(refused) do
  assert(healthcheck.compile(hc, nil) == nil, "refused shape " .. i)
end
