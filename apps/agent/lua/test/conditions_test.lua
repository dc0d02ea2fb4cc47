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

-- Several values are tried in order until one holds; a text shorter than a prefix never matches it.
local any = assert(conditions.compile({ field = "path", op = "prefix", values = { "/login", "/wp-", "/x" }, negate = false }))
assert(any(conditions.request({ uri = "/wp-login.php" })) and any(conditions.request({ uri = "/x" })), "a later value")
assert(not any(conditions.request({ uri = "/" })) and not any(conditions.request({ uri = "/log" })), "no value")
assert(not any(conditions.request({ uri = "/lxgin" })), "the same second byte is not a prefix")
local agent = assert(conditions.compile({ field = "user_agent", op = "prefix", values = { "c", "Wget/" }, negate = false }))
assert(agent(conditions.request({ http_user_agent = "curl/8" })) and agent(conditions.request({ http_user_agent = "Wget/1" })),
  "a one-byte prefix other than / and a longer one")
assert(not agent(conditions.request({ http_user_agent = "" })), "an empty text")
local words = assert(conditions.compile({ field = "query", op = "contains", values = { "union select", "<script" }, negate = false }))
assert(words(conditions.request({ args = "q=<script>" })) and not words(conditions.request({})), "contains any value")
local scanners = assert(conditions.compile({ field = "user_agent", op = "regex", values = { "^sqlmap", "(?i)nikto" }, negate = true }))
assert(not scanners(conditions.request({ http_user_agent = "Mozilla NIKTO" })), "a later pattern, negated")
assert(scanners(conditions.request({ http_user_agent = "Mozilla sqlmap" })), "no pattern holds")

-- All conditions hold, read in order; the first that fails stops the rest.
local three = assert(conditions.compile_all({
  { field = "method", op = "equals", values = { "post" }, negate = false },
  { field = "path", op = "prefix", values = { "/api" }, negate = false },
  header("X-Key", "k"),
}))
assert(three(conditions.request({ request_method = "POST", uri = "/api/v1", http_x_key = "k" })), "all three")
assert(not three(conditions.request({ request_method = "POST", uri = "/api/v1", http_x_key = "j" })), "the last fails")
local unread = conditions.request({ request_method = "GET", uri = "/api/v1", http_x_key = "k" })
assert(not three(unread) and unread.path == nil and unread.http_x_key == nil, "a failed first condition leaves the rest unread")

-- nginx's bytes of the client address are looked up as they are (IPv4 and IPv6); the text only without them.
local v4_bytes = conditions.request({ remote_addr = "192.0.2.8", binary_remote_addr = string.char(10, 1, 2, 3) })
assert(acl(v4_bytes), "the address bytes are read, not the text")
local v6 = assert(conditions.compile({ field = "ip", op = "cidr", values = { "2001:db8::/32" }, negate = false }))
local v6_bytes = string.char(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5)
assert(v6(conditions.request({ remote_addr = "2001:db8::5", binary_remote_addr = v6_bytes })), "IPv6 bytes")
assert(not v6(conditions.request({ remote_addr = "2001:db9::5" })), "IPv6 text outside")

-- Patterns that only name words are answered by plain finds, with PCRE's meaning kept.
local function regex(pattern)
  return assert(conditions.compile({ field = "user_agent", op = "regex", values = { pattern }, negate = false }))
end
local function agent_is(test, text) return test(conditions.request({ http_user_agent = text })) end
local caseless = regex("(?i)(sqlmap|nikto|masscan|zgrab)")
assert(agent_is(caseless, "Mozilla/5.0 NiKtO/2") and agent_is(caseless, "zgrab/0.x"), "any word, any case")
assert(not agent_is(caseless, "Mozilla/5.0 bench") and not agent_is(caseless, ""), "no word")
local exact = regex("curl|Wget/1")
assert(agent_is(exact, "curl/8") and agent_is(exact, "x Wget/1.2"), "a bare alternation")
assert(not agent_is(exact, "CURL/8") and not agent_is(exact, "wget/1"), "case counts without (?i)")
assert(agent_is(regex("(?:bot)"), "a bot") and agent_is(regex("(?i)(my bot_1-x)"), "MY BOT_1-X"), "groups and signs")
-- Anything else is a regex as written.
assert(agent_is(regex("^curl"), "curl/8") and not agent_is(regex("^curl"), "x curl"), "an anchor")
assert(agent_is(regex("(?i)a.c"), "AXC") and not agent_is(regex("a.c"), "ac"), "a dot")
assert(agent_is(regex("(a)|(b)"), "b") and not agent_is(regex("(a)|(b)"), "c"), "two groups")
assert(agent_is(regex("a||b"), "c"), "an empty alternative holds everywhere")

-- What the nginx module's protection programs run (`plan`): codes, and the values as compared.
local function plan(condition)
  condition.negate = condition.negate or false
  assert(conditions.compile(condition), "compiles")
  return conditions.plan(condition)
end
local p = plan({ field = "method", op = "equals", values = { "post", "Put" } })
assert(p.field == 2 and p.op == 1 and p.values[1] == "POST" and p.values[2] == "PUT", "method: in upper case")
p = plan({ field = "host", op = "equals", values = { "WWW.Example.com" } })
assert(p.field == 5 and p.values[1] == "www.example.com", "host: in lower case")
p = plan({ field = "header", header = "X-Api-Key", op = "prefix", values = { "k" }, negate = true })
assert(p.field == 8 and p.op == 2 and p.name == "http_x_api_key" and p.negate == true, "a header by its variable")
p = plan({ field = "ip", op = "cidr", values = { "10.0.0.0/8", "2001:db8::/32" } })
assert(p.field == 9 and p.op == 5 and #p.ranges == 2, "an address set")
p = plan({ field = "user_agent", op = "regex", values = { "(?i)(sqlmap|Nikto)", "(?i)zgrab" } })
assert(p.op == 4 and table.concat(p.values, ",") == "sqlmap,nikto,zgrab", "words ignoring case, in lower case")
p = plan({ field = "referer", op = "regex", values = { "curl|Wget/1" } })
assert(p.op == 3 and table.concat(p.values, ",") == "curl,Wget/1", "words as written: a plain find")
p = plan({ field = "country", op = "equals", values = { "cn", "US" }, negate = true })
assert(p.field == 8 and p.name == "rampart_country" and p.op == 1 and p.negate == true, "a country: its variable")
assert(table.concat(p.values, ",") == "CN,US", "country codes in upper case")
-- Left to Lua: a real regex, words in both case modes.
assert(plan({ field = "path", op = "regex", values = { "^/admin" } }) == nil, "an anchor")
assert(plan({ field = "user_agent", op = "regex", values = { "(?i)a", "b" } }) == nil, "two case modes")
assert(plan({ field = "path", op = "regex", values = { "a||b" } }) == nil, "an empty alternative")
