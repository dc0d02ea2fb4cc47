-- Conditions of matches and ACL entries, compiled once when the routing table loads: every request
-- then runs closures over prepared sets, never parsing a rule.
local cidr = require "rampart.cidr"
local unrolled = require "rampart.unrolled"

local ngx = ngx
local find = string.find
local byte = string.byte
local sub = string.sub
local upper = string.upper
local match = string.match
local lower = string.lower
local re_find = ngx and ngx.re and ngx.re.find
local new_table = require "table.new"

local _M = {}

-- What a condition reads from the request; `request` caches each value for the request.
local READERS = {
  path = function(var) return var.uri end,
  query = function(var) return var.args or "" end,
  method = function(var) return var.request_method end,
  user_agent = function(var) return var.http_user_agent or "" end,
  referer = function(var) return var.http_referer or "" end,
  host = function(var) return var.host end,
  -- The geoip2 lookup (nginx-conf.ts), made when first read; "" without a database or a match.
  country = function(var) return var.rampart_country or "" end,
}

local function prefix_test(v)
  local length, first, second = #v, byte(v, 1), byte(v, 2)
  if length == 1 then return function(text) return byte(text, 1) == first end end
  -- The second byte first (the first of a path is always "/"): most texts are refused without a substring.
  return function(text) return byte(text, 2) == second and sub(text, 1, length) == v end
end

-- A pattern that only names words: "(?i)(sqlmap|nikto)", "curl|wget", "(?:bot)". Its words (letters,
-- digits, space, "_", "-", "/": nothing PCRE reads as syntax outside a class) and whether case is
-- ignored; nil for any other pattern. Such a pattern holds exactly when one word is in the text
-- (ignoring ASCII case, as PCRE does without UTF mode), which plain finds answer without a regex
-- call (its cache key and lookup per request).
local function literal_words(pattern)
  local caseless = false
  if sub(pattern, 1, 4) == "(?i)" then
    caseless, pattern = true, sub(pattern, 5)
  end
  local inner = match(pattern, "^%(%?:(.*)%)$") or match(pattern, "^%((.*)%)$") or pattern
  local words = {}
  for word in (inner .. "|"):gmatch("([^|]*)|") do
    if not find(word, "^[%w _/-]+$") then return nil end
    words[#words + 1] = caseless and lower(word) or word
  end
  return words, caseless
end

-- True when one of `words` is in the text (lowered once first when case is ignored).
local function words_test(words, caseless)
  local finds = {}
  for i, word in ipairs(words) do
    finds[i] = function(text) return find(text, word, 1, true) ~= nil end
  end
  local any = unrolled.any(finds)
  if caseless then return function(text) return (any(lower(text))) end end
  return any
end

local function string_test(op, values)
  local tests = {}
  if op == "equals" then
    local set = {}
    for _, v in ipairs(values) do set[v] = true end
    return function(text) return set[text] == true end
  elseif op == "prefix" then
    for i = 1, #values do
      -- Every path starts with "/": a rule on all paths needs one comparison.
      if values[i] == "/" then return prefix_test("/") end
      tests[i] = prefix_test(values[i])
    end
  elseif op == "contains" then
    for i = 1, #values do
      local v = values[i]
      tests[i] = function(text) return find(text, v, 1, true) ~= nil end
    end
  elseif op == "regex" then
    for _, v in ipairs(values) do
      -- ngx.re.find answers (from, to, err); a pattern that does not compile gives only err.
      local ok, _, _, err = pcall(re_find, "", v, "jo")
      if not ok or err then return nil, "regex does not compile: " .. tostring(err) end
      local words, caseless = literal_words(v)
      if words then
        tests[#tests + 1] = words_test(words, caseless)
      else
        tests[#tests + 1] = function(text) return re_find(text, v, "jo") ~= nil end
      end
    end
  else
    return nil, "unknown op " .. tostring(op)
  end
  return unrolled.any(tests)
end

--- A test `function(request) -> boolean` for one condition, or nil and why.
function _M.compile(condition)
  if type(condition) ~= "table" or type(condition.values) ~= "table" or #condition.values == 0 then
    return nil, "condition without values"
  end
  for _, v in ipairs(condition.values) do
    if type(v) ~= "string" or #v > 256 or not v:find("^[ -~]+$") then return nil, "bad value" end
  end
  local negate = condition.negate == true
  local field, op = condition.field, condition.op
  local test
  if field == "ip" then
    if op ~= "cidr" then return nil, "ip compares by cidr only" end
    local set, err = cidr.new(condition.values)
    if not set then return nil, err end
    test = function(request) return request:in_set(set) ~= nil end
  else
    if op == "cidr" then return nil, "cidr is for ip only" end
    -- A country condition is a set of codes: one table lookup a request, however many it lists.
    if field == "country" and op ~= "equals" then return nil, "country compares by equals only" end
    local values = condition.values
    if field == "method" or field == "country" then
      values = {}
      for i, v in ipairs(condition.values) do values[i] = upper(v) end
    elseif field == "host" then
      values = {}
      for i, v in ipairs(condition.values) do values[i] = lower(v) end
    end
    local compare, err = string_test(op, values)
    if not compare then return nil, err end
    -- What the value is kept under for the request: each header by its own name.
    local key, read = field, nil
    if field == "header" then
      local name = condition.header
      if type(name) ~= "string" or not name:find("^[A-Za-z0-9][A-Za-z0-9-]*$") or #name > 64 then
        return nil, "bad header name"
      end
      local variable = "http_" .. lower(name):gsub("-", "_")
      read = function(var) return var[variable] or "" end
      key = variable
    else
      read = READERS[field]
      if not read then return nil, "unknown field " .. tostring(field) end
    end
    test = function(request) return (compare(request:get(key, read))) end
  end
  if negate then return function(request) return not test(request) end end
  return test
end

-- The nginx module's codes (ngx_http_rampart_protect.h): the fields it reads and how it compares.
-- A header and the country are variables it reads by name (code 8), as ngx.var does.
local FIELD_CODES = {
  path = 0, query = 1, method = 2, user_agent = 3, referer = 4, host = 5, header = 8, country = 8, ip = 9,
}
local OP_CODES = { equals = 1, prefix = 2, contains = 3 }
local CONTAINS, CONTAINS_CI, CIDR = 3, 4, 5

--- A condition that `compile` accepted, as the nginx module's protection programs run it
--- (fast_protect.lua): `field` and `op` codes, `negate`, the `values` as compared (in upper case for
--- the method and the country, lower case for the host; a regex's words), the `name` of the variable
--- a header or the country is read from, or an address condition's `ranges`. nil when only this
--- file can run it: a regex that is not a list of words all in the same case mode.
function _M.plan(condition)
  local field, op = condition.field, condition.op
  local negate = condition.negate == true
  if field == "ip" then return { field = FIELD_CODES.ip, op = CIDR, negate = negate, ranges = condition.values } end
  local code = FIELD_CODES[field]
  if not code then return nil end
  local values = {}
  for i, v in ipairs(condition.values) do
    values[i] = ((field == "method" or field == "country") and upper(v)) or (field == "host" and lower(v)) or v
  end
  local op_code = OP_CODES[op]
  if op == "regex" then
    local words, mode = {}, nil
    for _, pattern in ipairs(values) do
      local found, caseless = literal_words(pattern)
      if not found or (mode ~= nil and mode ~= caseless) then return nil end
      mode = caseless
      for _, word in ipairs(found) do words[#words + 1] = word end
    end
    values, op_code = words, mode and CONTAINS_CI or CONTAINS
  end
  if not op_code then return nil end
  local name = nil
  if field == "header" then name = "http_" .. (lower(condition.header):gsub("-", "_")) end
  -- READERS.country's variable: the geoip2 lookup, or nothing (read as "") without a database.
  if field == "country" then name = "rampart_country" end
  return { field = code, op = op_code, negate = negate, values = values, name = name }
end

--- All of `conditions` (AND), compiled; nil and why when one does not compile.
function _M.compile_all(conditions)
  if type(conditions) ~= "table" or #conditions == 0 then return nil, "no conditions" end
  local tests = {}
  for i, condition in ipairs(conditions) do
    local test, err = _M.compile(condition)
    if not test then return nil, "condition " .. i .. ": " .. err end
    tests[i] = test
  end
  return unrolled.all(tests)
end

-- The request as conditions see it: each value read from nginx at most once.
local Request = {}
Request.__index = Request

--- The client address as text, read from nginx once.
function Request:addr()
  local addr = self.addr_text
  if addr == nil then
    addr = self.var.remote_addr
    self.addr_text = addr
  end
  return addr
end

function Request:ip()
  local bin = self.ip_bin
  if bin == nil then
    -- nginx's own bytes of the address (no text to parse: a loop per request), else the text's.
    bin = self.var.binary_remote_addr
    if bin == nil or (#bin ~= 4 and #bin ~= 16) then bin = cidr.parse(self:addr()) or false end
    self.ip_bin = bin
  end
  return bin or nil
end

--- The range of `set` holding the client address, or nil (IPv4 by number, IPv6 by bytes).
function Request:in_set(set)
  local number = self.ip_number
  if number == nil then
    local bin = self:ip()
    number = bin and #bin == 4 and byte(bin, 1) * 16777216 + byte(bin, 2) * 65536 + byte(bin, 3) * 256 + byte(bin, 4)
      or false
    self.ip_number = number
  end
  if number then return (set.v4_find(number)) end
  return (cidr.find(set, self:ip()))
end

function Request:get(field, read)
  local value = self[field]
  if value == nil then
    value = read(self.var)
    self[field] = value
  end
  return value
end

function _M.request(var)
  -- Room for every value a request reads made at once: growing the table key by key reallocates
  -- its hash part four times a request.
  local request = new_table(0, 16)
  request.var = var
  return (setmetatable(request, Request))
end

return _M
