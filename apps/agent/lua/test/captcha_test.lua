-- Run by apps/agent/test/lua.test.ts inside nginx's own LuaJIT (init_by_lua of a real start).
local captcha = require "rampart.captcha"
local challenge = require "rampart.challenge"

challenge.secret = "test-secret"
local w, h = captcha.WIDTH, captcha.HEIGHT

local function u32(s, at) return s:byte(at) + s:byte(at + 1) * 256 + s:byte(at + 2) * 65536 + s:byte(at + 3) * 16777216 end

-- The stream is uniform enough for digits and never leaves [0, n).
local random = captcha.stream(ngx.hmac_sha1(challenge.secret, "seed"))
local counts = {}
for _ = 1, 10000 do
  local d = random(10)
  assert(d >= 0 and d < 10 and d == math.floor(d), "random(10) gave " .. tostring(d))
  counts[d] = (counts[d] or 0) + 1
end
for d = 0, 9 do assert(counts[d] > 850 and counts[d] < 1150, "digit " .. d .. " drawn " .. tostring(counts[d])) end
-- The same seed gives the same picture; another seed another one.
local function picture(answer, seed) return captcha.image(answer, captcha.stream(ngx.hmac_sha1(challenge.secret, seed))) end
assert(picture("12345", "a") == picture("12345", "a"))
assert(picture("12345", "a") ~= picture("12345", "b"))
assert(picture("12345", "a") ~= picture("12346", "a"), "the last digit does not show")

-- A BMP a browser reads: header sizes, 8 bits per pixel, rows padded to 4 bytes.
local bmp = picture("90817", "c")
local row = math.floor((w + 3) / 4) * 4
assert(bmp:sub(1, 2) == "BM")
assert(u32(bmp, 3) == #bmp, "file size")
local offset = u32(bmp, 11)
assert(u32(bmp, 15) == 40 and u32(bmp, 19) == w and u32(bmp, 23) == h)
assert(bmp:byte(29) == 8 and u32(bmp, 31) == 0)
assert(offset == 54 + 4 * u32(bmp, 47) and #bmp == offset + row * h)
-- Ink (palette 1 to 4) in every glyph's column band, and most of the picture left as background.
local ink, background = {}, 0
for y = 0, h - 1 do
  for x = 0, w - 1 do
    local index = bmp:byte(offset + y * row + x + 1)
    if index == 0 then background = background + 1 end
    if index >= 1 and index <= 4 then
      local band = math.floor((x - 10) / 26) + 1
      ink[band] = (ink[band] or 0) + 1
    end
  end
end
assert(background > w * h / 2, "background " .. background)
for band = 1, 5 do assert((ink[band] or 0) > 60, "glyph " .. band .. " has " .. tostring(ink[band]) .. " ink pixels") end

-- Tokens: the right answer in time, for this site and address only.
local later = ngx.time() + 60
local token = captcha.token("04217", 3, "192.0.2.1", later)
assert(captcha.verify(3, "192.0.2.1", token, "04217"))
assert(captcha.verify(3, "192.0.2.1", token, " 0421 7 "))
assert(captcha.verify(3, "192.0.2.1", token, "\239\188\144\239\188\148\239\188\146\239\188\145\239\188\151"))
assert(not captcha.verify(3, "192.0.2.1", token, "04218"))
assert(not captcha.verify(3, "192.0.2.1", token, "4217"))
assert(not captcha.verify(4, "192.0.2.1", token, "04217"))
assert(not captcha.verify(3, "192.0.2.2", token, "04217"))
assert(not captcha.verify(3, "192.0.2.1", token:gsub("^%d+", tostring(later + 1)), "04217"))
assert(not captcha.verify(3, "192.0.2.1", captcha.token("04217", 3, "192.0.2.1", ngx.time() - 1), "04217"))
assert(not captcha.verify(3, "192.0.2.1", nil, "04217") and not captcha.verify(3, "192.0.2.1", token, nil))
-- A token is not a pass: its mac is over the answer, never over a challenge kind.
assert(token ~= challenge.sign("captcha", 3, "192.0.2.1", later))

-- The same URL never becomes a scheme-relative one.
local var = ngx.var
ngx.var = { request_uri = "//evil.example/x?y=1" }
assert(challenge.same_url() == "/evil.example/x?y=1")
ngx.var = { request_uri = "/\\evil.example" }
assert(challenge.same_url() == "/evil.example")
ngx.var = { request_uri = "/a//b?c=//d" }
assert(challenge.same_url() == "/a//b?c=//d")
ngx.var = var
