-- The image captcha, drawn here with no other service: five digits from a built-in 5×7 font,
-- scaled, skewed and shifted per glyph, crossed by noise lines and dots, sent as an 8-bit BMP inside
-- the page. Stateless: the page carries `expires.mac(answer|site|ip|expires)` under this node's
-- secret, so a right answer is checked without memory; it earns the `captcha` pass (challenge.lua).
local bit = require "bit"
local challenge = require "rampart.challenge"

local ngx = ngx
local byte = string.byte
local char = string.char
local concat = table.concat
local floor = math.floor
local fmt = string.format
local tonumber = tonumber
local unpack = unpack

local _M = { WIDTH = 150, HEIGHT = 50, DIGITS = 5 }

-- Seconds an image stays answerable, and the largest form body read.
local TOKEN_SECONDS = 300
local MAX_BODY = 4096
local TOKEN_FIELD, ANSWER_FIELD = "rampart_captcha_token", "rampart_captcha_answer"

-- 5×7 glyphs of 0 to 9, a number per row, bit 4 the leftmost column.
local FONT = {
  { 0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E },
  { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E },
  { 0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F },
  { 0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E },
  { 0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02 },
  { 0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E },
  { 0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E },
  { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 },
  { 0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E },
  { 0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C },
}

-- Index 0 the background, 1 to 4 ink, 5 to 7 faint noise.
local PALETTE = {
  { 244, 243, 236 }, { 28, 52, 128 }, { 138, 28, 40 }, { 22, 96, 58 }, { 52, 52, 52 },
  { 186, 188, 204 }, { 206, 182, 168 }, { 168, 202, 180 },
}
local INK, FAINT = 1, 5

--- Uniform integers in [0, n) (n <= 256) from HMAC-SHA1 blocks chained under the node's secret,
--- starting from `seed`: unguessable without the secret, and no generator state shared by requests.
function _M.stream(seed)
  local block, at = seed, 0
  return function(n)
    -- Bytes at or past the last whole multiple of n are skipped, so no value is favoured.
    local limit = 256 - 256 % n
    while true do
      if at == #block then
        block, at = ngx.hmac_sha1(challenge.secret, block), 0
      end
      at = at + 1
      local b = byte(block, at)
      if b < limit then return b % n end
    end
  end
end

--- The palette indices of the picture of `answer` (digits), row by row from the top.
function _M.draw(answer, random)
  local w, h = _M.WIDTH, _M.HEIGHT
  local pixels = {}
  for i = 1, w * h do pixels[i] = 0 end
  local function plot(x, y, color)
    if x >= 0 and x < w and y >= 0 and y < h then pixels[y * w + x + 1] = color end
  end
  local function line(x0, y0, x1, y1, color)
    local dx, dy = math.abs(x1 - x0), -math.abs(y1 - y0)
    local sx, sy = x0 < x1 and 1 or -1, y0 < y1 and 1 or -1
    local err = dx + dy
    while true do
      plot(x0, y0, color)
      if x0 == x1 and y0 == y1 then return end
      local e2 = 2 * err
      if e2 >= dy then err, x0 = err + dy, x0 + sx end
      if e2 <= dx then err, y0 = err + dx, y0 + sy end
    end
  end

  for _ = 1, 4 do line(random(w), random(h), random(w), random(h), FAINT + random(3)) end
  local cell = floor((w - 20) / #answer)
  for g = 1, #answer do
    local rows = FONT[byte(answer, g) - 47]
    local sx, sy = 3 + random(2), 4 + random(2)
    local height = 7 * sy
    local ox = 10 + (g - 1) * cell + random(cell - 5 * sx + 1)
    local oy = 4 + random(h - 8 - height + 1)
    -- Skew: the glyph's top leans up to 2 columns either way, its foot stays put.
    local lean = random(5) - 2
    local color = INK + random(4)
    for y = 0, height - 1 do
      local bits = rows[floor(y / sy) + 1]
      local shift = floor(lean * (height - 1 - y) * sx / height)
      for x = 0, 5 * sx - 1 do
        if bit.band(bits, bit.rshift(16, floor(x / sx))) ~= 0 then plot(ox + x + shift, oy + y, color) end
      end
    end
  end
  -- Thin ink lines across the digits, then dots: a glyph is never one clean shape.
  for _ = 1, 2 do line(0, random(h), w - 1, random(h), INK + random(4)) end
  for _ = 1, 160 do plot(random(w), random(h), random(2) == 0 and INK + random(4) or FAINT + random(3)) end
  return pixels
end

local function u16(n) return char(n % 256, floor(n / 256) % 256) end
local function u32(n) return char(n % 256, floor(n / 256) % 256, floor(n / 65536) % 256, floor(n / 16777216) % 256) end

--- An uncompressed 8-bit palette BMP (BITMAPINFOHEADER, rows bottom-up, each padded to 4 bytes).
function _M.bmp(width, height, palette, pixels)
  local row_size = floor((width + 3) / 4) * 4
  local pad = string.rep("\0", row_size - width)
  local offset = 14 + 40 + 4 * #palette
  local out = {
    "BM", u32(offset + row_size * height), u32(0), u32(offset),
    u32(40), u32(width), u32(height), u16(1), u16(8), u32(0), u32(row_size * height), u32(2835), u32(2835),
    u32(#palette), u32(0),
  }
  for _, rgb in ipairs(palette) do out[#out + 1] = char(rgb[3], rgb[2], rgb[1], 0) end
  for y = height - 1, 0, -1 do out[#out + 1] = char(unpack(pixels, y * width + 1, y * width + width)) .. pad end
  return concat(out)
end

--- The BMP of `answer` drawn with `random`.
function _M.image(answer, random)
  return _M.bmp(_M.WIDTH, _M.HEIGHT, PALETTE, _M.draw(answer, random))
end

--- What the page carries: `expires.mac` over the answer, the site, the client address and the expiry.
function _M.token(answer, site_id, ip, expires)
  return expires .. "." .. challenge.mac(answer, site_id, ip, expires)
end

--- Whether `answer` is the one `token` was made for, for this site and address, and still in time.
function _M.verify(site_id, ip, token, answer)
  if type(token) ~= "string" or type(answer) ~= "string" or #token > 200 or #answer > 64 then return false end
  -- Full-width digits (a Chinese input method) and spaces are taken as typed.
  answer = answer:gsub("\239\188([\144-\153])", function(c) return char(byte(c) - 96) end):gsub("%s", "")
  if #answer ~= _M.DIGITS or answer:find("%D") then return false end
  local expires, signature = token:match("^(%d+)%.([A-Za-z0-9_-]+)$")
  if not expires or #expires > 12 or tonumber(expires) < ngx.time() then return false end
  return signature == challenge.mac(answer, site_id, ip, expires)
end

--- The page with a fresh image; `wrong` says the last answer was not right.
function _M.page(site_id, ip, wrong)
  local t = challenge.text()
  local random = _M.stream(ngx.hmac_sha1(challenge.secret, "captcha|" .. ngx.var.request_id .. "|" .. ngx.now()))
  local digits = {}
  for i = 1, _M.DIGITS do digits[i] = random(10) end
  local answer = concat(digits)
  local form = fmt(
    '<form method="post"><p><img src="data:image/bmp;base64,%s" width="%d" height="%d" alt="%s" '
      .. 'style="width:%dpx;height:auto;max-width:100%%;image-rendering:pixelated;border:1px solid #ccc"></p>'
      .. '<input type="hidden" name="%s" value="%s"><p><label for="rampart-captcha">%s</label><br>'
      .. '<input id="rampart-captcha" name="%s" autocomplete="off" inputmode="numeric" pattern="[0-9]*" '
      .. 'maxlength="%d" required autofocus style="font-size:1.2em;width:7em"> <button type="submit">%s</button></p>'
      .. '<p><a href="">%s</a></p></form>',
    ngx.encode_base64(_M.image(answer, random)), _M.WIDTH, _M.HEIGHT, t.captcha_image, 2 * _M.WIDTH,
    TOKEN_FIELD, _M.token(answer, site_id, ip, ngx.time() + TOKEN_SECONDS), t.captcha_label,
    ANSWER_FIELD, _M.DIGITS, t.captcha_submit, t.captcha_new
  )
  return challenge.page(t.captcha_title, wrong and t.captcha_wrong or t.captcha_prompt, form)
end

-- The token and answer of a posted captcha form, or nil when the request is not one. Other bodies,
-- and forms over MAX_BODY or of unknown length, are discarded unread.
local function submission()
  local content_type = ngx.var.content_type
  local length = tonumber(ngx.var.http_content_length)
  if ngx.req.get_method() ~= "POST" or not length or length > MAX_BODY or not content_type
    or not content_type:lower():find("application/x-www-form-urlencoded", 1, true) then
    ngx.req.discard_body()
    return nil
  end
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if not body then return nil end
  local args = ngx.decode_args(body, 8)
  local token, answer = args[TOKEN_FIELD], args[ANSWER_FIELD]
  if type(token) ~= "string" then return nil end
  return token, type(answer) == "string" and answer or ""
end

--- Answers a request the captcha stops: a right answer gets the pass and a 303 back to the same URL
--- (as a GET); anything else a fresh image (503, like the other challenge pages).
function _M.serve(site_id, ip, valid_seconds)
  local token, answer = submission()
  ngx.header["Cache-Control"] = "no-store"
  if token and _M.verify(site_id, ip, token, answer) then
    local pass = challenge.sign("captcha", site_id, ip, ngx.time() + valid_seconds)
    ngx.header["Set-Cookie"] = "rampart_captcha=" .. pass .. "; Path=/; Max-Age=" .. valid_seconds
      .. "; HttpOnly; SameSite=Lax"
    return ngx.redirect(challenge.same_url(), 303)
  end
  ngx.status = 503
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.print(_M.page(site_id, ip, token ~= nil))
  return ngx.exit(503)
end

return _M
