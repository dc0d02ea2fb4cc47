-- Protection decisions (run by apps/agent/test/lua.test.ts, with the shared dicts of the edge): ACL
-- entries and a group's lines are tried in order, and the first that decides answers.
local cjson = require "cjson"
local conditions = require "rampart.conditions"
local protect = require "rampart.protect"

local function ip_entry(action, range)
  return { action = action, condition = { field = "ip", op = "cidr", values = { range }, negate = false } }
end
local function path_entry(action, prefix)
  return { action = action, condition = { field = "path", op = "prefix", values = { prefix }, negate = false } }
end
local function rate(id, prefix, requests, action)
  return {
    match_id = id, filter_id = id, action = action, ban_seconds = 60,
    conditions = { { field = "path", op = "prefix", values = { prefix }, negate = false } },
    filter = { name = "rate " .. id, type = "rate", requests = requests, seconds = 60, per = "ip" },
  }
end
local function guarded(id, group)
  return {
    id = id, sid = tostring(id),
    protection = { rule_group_id = group, attack_rule_group_id = cjson.null, under_attack = false, whitelist = {} },
  }
end

local sites = { guarded(1, 5), guarded(2, 6) }
local broken, prepared = protect.compile({
  protection = {
    rule_groups = {
      { id = 5, rules = { rate(1, "/log", 0, "log"), rate(2, "/logs", 0, "log"), rate(3, "/", 2, "block") } },
      { id = 6, rules = { rate(4, "/", 1, "ban") } },
    },
    acls = {
      { site_id = 1, entries = {
        ip_entry("deny", "10.0.0.0/8"), ip_entry("deny", "10.1.0.0/16"), path_entry("allow", "/open"),
        ip_entry("deny", "192.0.2.0/24"), ip_entry("allow", "198.51.100.7"),
      } },
    },
    bans = {}, unbans = {},
  },
}, sites)
assert(#broken == 0, "every site compiles")
protect.install(prepared.node)

local function check(site, addr, path)
  return protect.check(site, site.protect, conditions.request({ remote_addr = addr, uri = path }))
end
local function says(decision, text)
  return type(decision) == "table" and type(decision.reason) == "string" and decision.reason:find(text, 1, true) ~= nil
end

-- ACL: the entry holding the address decides, in the order the entries were written.
local first = sites[1]
local denied = check(first, "10.1.2.3", "/x")
assert(denied.status == 403 and says(denied, "kind=acl;action=deny;detail=entry 2"), "the longest range's entry")
assert(says(check(first, "10.9.9.9", "/x"), "detail=entry 1"), "the first entry")
assert(check(first, "192.0.2.9", "/open") == protect.ALLOW, "an allow entry before a deny entry")
assert(says(check(first, "192.0.2.9", "/x"), "detail=entry 4"), "a deny entry after an allow entry it passed")
assert(check(first, "198.51.100.7", "/x") == protect.ALLOW, "the last entry")

-- Lines: a logged failure is carried past later lines; a blocking one answers.
local logged = check(first, "203.0.113.2", "/logs/a")
assert(logged and logged.status == nil and says(logged, "action=log;group=5;match=1;"), "the first logged line")
assert(check(first, "203.0.113.1", "/x") == nil and check(first, "203.0.113.1", "/x") == nil, "under the rate")
local blocked = check(first, "203.0.113.1", "/x")
assert(blocked.status == 403 and says(blocked, "kind=rate;action=block;group=5;match=3;"), "over the rate")

-- A ban line bans the address on this node: the next request is refused before any line runs.
local second = sites[2]
assert(check(second, "203.0.113.9", "/") == nil, "the first request")
local banning = check(second, "203.0.113.9", "/")
assert(banning.banned and says(banning, "action=ban;group=6;match=4;"), "the second bans")
local banned = check(second, "203.0.113.9", "/")
assert(banned.banned and says(banned, "kind=ban;action=banned"), "the third meets the ban")
assert(check(second, "203.0.113.10", "/") == nil, "another address")
