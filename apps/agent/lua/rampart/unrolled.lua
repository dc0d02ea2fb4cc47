-- Functions over a list (a set's prefix lengths, a condition's values, ACL entries, a group's lines,
-- cache rules), written out once per config as straight code: a loop of a few iterations per request,
-- or a chain of closures of one prototype (which LuaJIT takes for recursion), breaks the request's
-- compiled trace and sends the rest of it to the interpreter. Only the list's length is written into
-- the source; the functions and values themselves are read from the list passed in.
local concat = table.concat
local load = loadstring or load

local _M = {}

-- The generated functions make no tail call (each result is in parentheses): LuaJIT counts tail
-- calls in a trace against its loop unroll limit and gives the trace up past it.

local function compiled(source)
  return assert(load(source, "=rampart.unrolled"))
end

-- Chunks of `first` by source. Its source depends only on the list's length, so the cache rules of
-- 10,000 sites compile a handful of chunks instead of one per site (each call still makes its own
-- function over its own list). Only `first` shares: a request calls one site's chain, never one
-- chain from inside another, whereas the other shapes nest (an `any` of conditions holding an `any`
-- of values) and two nested functions of one prototype look like recursion to LuaJIT.
local shared_chunks = {}

local function shared(source)
  local chunk = shared_chunks[source]
  if not chunk then
    chunk = compiled(source)
    shared_chunks[source] = chunk
  end
  return chunk
end

-- Compiles `return function(<args>) <body> end` with `L` (the list) and `X` (an extra value) in
-- scope; `compile` is `compiled`, or `shared` for `first`.
local function build(list, extra, args, body, compile)
  local source = "local L, X = ...\nreturn function(" .. args .. ")\n" .. body .. "\nend"
  return (compile or compiled)(source)(list, extra)
end

-- `piece(i)` for i = 1..n, joined.
local function each(n, piece, separator)
  local parts = {}
  for i = 1, n do parts[i] = piece(i) end
  return concat(parts, separator)
end

--- function(v) -> true when one of `tests` (functions answering booleans) holds for v, tried in order.
function _M.any(tests)
  if #tests == 0 then return function() return false end end
  return build(tests, nil, "v", "return (" .. each(#tests, function(i) return "L[" .. i .. "](v)" end, " or ") .. ")")
end

--- function(v) -> true when every one of `tests` holds for v, tried in order until one fails.
function _M.all(tests)
  if #tests == 0 then return function() return true end end
  return build(tests, nil, "v", "return (" .. each(#tests, function(i) return "L[" .. i .. "](v)" end, " and ") .. ")")
end

--- function(v) -> the first of `finds` (functions answering a value or nil) that answers for v, or nil.
function _M.first(finds)
  if #finds == 0 then return function() return nil end end
  return build(finds, nil, "v", "return " .. each(#finds, function(i) return "L[" .. i .. "](v)" end, " or ") .. " or nil",
    shared)
end

--- function(v) -> the first of `finds` (functions answering two values, the first nil when they do not
--- decide) that decides for v, both its values; or nil.
function _M.first_pair(finds)
  local body = each(#finds, function(i)
    return "  a, b = L[" .. i .. "](v)\n  if a ~= nil then return a, b end"
  end, "\n")
  return build(finds, nil, "v", "  local a, b\n" .. body .. "\n  return nil")
end

--- function(a, b, c, d) running step(item, a, b, c, d, carried) for each item of `items` in order:
--- the first step that answers a decision ends it with that decision; a step's second answer is
--- carried to the next step; after the last, finish(carried).
function _M.steps(items, step, finish)
  local body = each(#items, function(i)
    return "  decision, carried = S(L[" .. i .. "], a, b, c, d, carried)\n  if decision then return decision end"
  end, "\n")
  local source = "local L, S, F = ...\nreturn function(a, b, c, d)\n  local decision, carried\n" .. body
    .. "\n  return (F(carried))\nend"
  return compiled(source)(items, step, finish)
end

--- function(number) -> keys[i][floor(number / divisors[i])] for the first i that holds one, or nil.
function _M.probes(keys, divisors)
  local body = "return " .. each(#keys, function(i) return "L[" .. i .. "][floor(n / X[" .. i .. "])]" end, " or ")
  if #keys == 0 then body = "return nil" else body = body .. " or nil" end
  local source = "local L, X, floor = ...\nreturn function(n)\n" .. body .. "\nend"
  return compiled(source)(keys, divisors, math.floor)
end

return _M
