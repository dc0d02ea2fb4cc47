-- Conditions over a request (run by apps/agent/test/lua.test.ts); `var` stands in for ngx.var.
local conditions = require "rampart.conditions"

local function header(name, value)
  return { field = "header", header = name, op = "equals", values = { value }, negate = false }
end

-- Two header conditions read two headers: each value is kept under its own name for the request.
local both = assert(conditions.compile_all({ header("X-A", "1"), header("X-B", "2") }))
assert(both(conditions.request({ http_x_a = "1", http_x_b = "2" })), "both headers match")
assert(not both(conditions.request({ http_x_a = "1", http_x_b = "1" })), "the second header is read, not the first again")

-- A prefix rule on every path holds for every path, and only for paths.
local all = assert(conditions.compile({ field = "path", op = "prefix", values = { "/login", "/" }, negate = false }))
assert(all(conditions.request({ uri = "/" })) and all(conditions.request({ uri = "/x/y" })), "every path")
local login = assert(conditions.compile({ field = "path", op = "prefix", values = { "/login" }, negate = false }))
assert(login(conditions.request({ uri = "/login/a" })) and not login(conditions.request({ uri = "/" })), "a prefix")

-- The client address is read once and looked up in a set.
local acl = assert(conditions.compile({ field = "ip", op = "cidr", values = { "10.0.0.0/8", "192.0.2.7" }, negate = false }))
assert(acl(conditions.request({ remote_addr = "10.1.2.3" })), "in a range")
assert(acl(conditions.request({ remote_addr = "192.0.2.7" })), "an address")
assert(not acl(conditions.request({ remote_addr = "192.0.2.8" })), "outside")
