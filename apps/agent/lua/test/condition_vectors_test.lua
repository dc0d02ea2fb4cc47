-- The shared condition cases (condition-vectors.json, beside this file) through conditions.lua: the
-- master's rule preview runs the same file through its evaluator, so the two cannot drift.
local cjson = require "cjson.safe"
local conditions = require "rampart.conditions"

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local file = assert(io.open(dir .. "condition-vectors.json", "rb"))
local vectors = assert(cjson.decode(file:read("*a")))
file:close()

assert(#vectors.cases > 0, "no cases")
for i, case in ipairs(vectors.cases) do
  local var = {}
  for name, value in pairs(vectors.defaults) do var[name] = value end
  for name, value in pairs(case.request) do var[name] = value end
  local test, err = conditions.compile(case.condition)
  assert(test, "case " .. i .. " (" .. case.name .. ") does not compile: " .. tostring(err))
  local got = test(conditions.request(var))
  assert(got == case.expected,
    "case " .. i .. " (" .. case.name .. "): expected " .. tostring(case.expected) .. ", got " .. tostring(got))
end
