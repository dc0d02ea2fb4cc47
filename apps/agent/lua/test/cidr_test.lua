-- Run by apps/agent/test/lua.test.ts inside nginx's own LuaJIT (init_by_lua of `nginx -t`).
local cidr = require "rampart.cidr"

local set = assert(cidr.new({ "10.0.0.0/8", "192.168.1.7", "2001:db8::/32", "203.0.113.128/25", "::1", "0.0.0.0/0" }))
local only = assert(cidr.new({ "10.0.0.0/8", "192.168.1.7", "2001:db8::/32", "203.0.113.128/25", "::1" }))
local function has(s, ip)
  local number = cidr.v4_number(ip)
  if number then
    assert(cidr.find(s, cidr.parse(ip)) == cidr.find_v4(s, number), "find and find_v4 disagree on " .. ip)
    return cidr.find_v4(s, number)
  end
  return cidr.find(s, cidr.parse(ip))
end
assert(has(only, "10.1.2.3") == "10.0.0.0/8")
assert(has(only, "11.1.2.3") == nil)
assert(has(only, "192.168.1.7") == "192.168.1.7")
assert(has(only, "192.168.1.8") == nil)
assert(has(only, "203.0.113.200") == "203.0.113.128/25")
assert(has(only, "203.0.113.100") == nil)
assert(has(only, "2001:db8:1::5") == "2001:db8::/32")
assert(has(only, "2001:db9::5") == nil)
assert(has(only, "::1") == "::1")
assert(has(only, "::2") == nil)
-- The longest prefix answers first.
assert(has(set, "10.9.9.9") == "10.0.0.0/8")
assert(has(set, "11.1.2.3") == "0.0.0.0/0")
assert(cidr.parse("1.2.3") == nil and cidr.parse("1.2.3.256") == nil and cidr.parse("1:2:3") == nil)
assert(cidr.v4_number("1.2.3") == nil and cidr.v4_number("1..2.3") == nil and cidr.v4_number("1.2.3.4.") == nil)
assert(cidr.v4_number("255.255.255.255") == 4294967295)
assert(cidr.new({ "1.2.3.4/33" }) == nil)
-- Every prefix length is probed, longest first, whatever the number of lengths.
local nested = assert(cidr.new({ "10.0.0.0/8", "10.1.0.0/16", "10.1.2.0/24", "10.1.2.3", "10.1.2.0/28", "0.0.0.0/0" }))
assert(has(nested, "10.1.2.3") == "10.1.2.3" and has(nested, "10.1.2.4") == "10.1.2.0/28")
assert(has(nested, "10.1.2.200") == "10.1.2.0/24" and has(nested, "10.1.9.9") == "10.1.0.0/16")
assert(has(nested, "10.9.9.9") == "10.0.0.0/8" and has(nested, "9.9.9.9") == "0.0.0.0/0")
local empty = assert(cidr.new({}))
assert(has(empty, "10.1.2.3") == nil, "an empty set holds nothing")
