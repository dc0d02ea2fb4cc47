-- Certificate of an HTTPS handshake, chosen by SNI from the routing table. A name no HTTPS site
-- serves (or no SNI at all) ends the handshake, as `ssl_reject_handshake` would.
local routes = require "rampart.routes"
local tls_ocsp = require "rampart.tls_ocsp"
local ssl = require "ngx.ssl"
local lrucache = require "resty.lrucache"
local ffi = require "ffi"
local cjson = require "cjson.safe"

local C = ffi.C

local ngx = ngx
local lower = string.lower
local now, update_time = ngx.now, ngx.update_time

local _M = {}

-- Parsed certificates of this worker, by the routing table's entry: a changed certificate is a new
-- entry (a reload or a swap of the routing data), and the old ones age out. Bounded, so a node of
-- many certificates keeps the ones its clients ask for.
local parsed = lrucache.new(10000)

-- OpenSSL 3 decodes a PEM key by setting up every decoder it has, per key. A decoder set up once
-- per worker for each key type decodes a certificate's key on its first handshake in a worker in
-- 20-25 µs of CPU instead of 370-420 µs (2,000 P-256 and 300 RSA keys, all matching their certificates).
for _, declaration in ipairs({
  [[void *OSSL_DECODER_CTX_new_for_pkey(void **pkey, const char *input_type, const char *input_struct,
      const char *keytype, int selection, void *libctx, const char *propquery);]],
  "int OSSL_DECODER_from_data(void *ctx, const unsigned char **pdata, size_t *pdata_len);",
  "void OSSL_DECODER_CTX_free(void *ctx);",
  "void EVP_PKEY_free(void *pkey);",
  "void ERR_clear_error(void);",
}) do
  pcall(ffi.cdef, declaration) -- one declared before (by lua-resty-core) stays as it is
end
-- Absent before OpenSSL 3: keys are then parsed as lua-resty-core does.
local has_decoder = pcall(function()
  return C.OSSL_DECODER_CTX_new_for_pkey, C.OSSL_DECODER_from_data, C.OSSL_DECODER_CTX_free,
    C.EVP_PKEY_free, C.ERR_clear_error
end)
local KEYPAIR = 0x87 -- EVP_PKEY_KEYPAIR
-- Each decoder writes the key it made into its own slot.
local decoders = {}
local data_in = ffi.new("const unsigned char *[1]")
local size_in = ffi.new("size_t[1]")

local function decoder_for(keytype)
  local decoder = decoders[keytype]
  if decoder then return decoder end
  local slot = ffi.new("void *[1]")
  local ctx = C.OSSL_DECODER_CTX_new_for_pkey(slot, "PEM", nil, keytype, KEYPAIR, nil, nil)
  if ctx == nil then return nil end
  decoder = { ctx = ctx, slot = slot }
  decoders[keytype] = decoder
  return decoder
end

local function decode_key(pem, keytype)
  local decoder = decoder_for(keytype)
  if not decoder then return nil end
  decoder.slot[0] = nil
  data_in[0] = pem
  size_in[0] = #pem
  if C.OSSL_DECODER_from_data(decoder.ctx, data_in, size_in) ~= 1 or decoder.slot[0] == nil then
    C.ERR_clear_error() -- the failed try must not show in this handshake's errors
    -- Set up afresh next time rather than reuse one that failed halfway.
    C.OSSL_DECODER_CTX_free(decoder.ctx)
    decoders[keytype] = nil
    return nil
  end
  return ffi.gc(decoder.slot[0], C.EVP_PKEY_free)
end

local function parse_key(pem)
  if has_decoder then
    -- An RSA key's PEM is over a thousand characters, an EC key's a few hundred.
    local first, second = "EC", "RSA"
    if #pem > 1000 then first, second = "RSA", "EC" end
    local key = decode_key(pem, first) or decode_key(pem, second)
    if key then return key end
  end
  return ssl.parse_pem_priv_key(pem)
end

local function pair_for(id)
  local pem = routes.certs[id]
  if not pem then return nil end
  local pair = parsed:get(pem)
  if pair then return pair end
  local cert, err = ssl.parse_pem_cert(pem.cert)
  if not cert then return nil, err end
  local key, key_err = parse_key(pem.key)
  if not key then return nil, key_err end
  pair = { cert = cert, key = key, ocsp = tls_ocsp.key(id, pem) }
  parsed:set(pem, pair)
  return pair
end

-- Certificates parsed ahead between two yields of a worker's timer: 1-2 ms of CPU (an ECDSA
-- certificate takes 50-100 µs, most of it OpenSSL 3 decoding the X.509 structure).
local WARM_BATCH = 20
-- How many certificates of the routing table the last finished warm left parsed.
local ready = 0

--- Parses the routing table's certificates not parsed yet, as many as the cache holds, so that a
--- handshake finds its certificate ready as plain nginx's find the ones of its config. In the
--- master (init_by_lua, no `pause`) the workers inherit them; in a worker after a swap (`pause`), a
--- timer yields between batches so requests are not held up, and stops when another swap came.
--- Entries of a table swapped out are the least recently used, so they are the ones evicted.
function _M.warm(pause)
  local certs = routes.certs
  update_time()
  local started, count, failed = now(), 0, 0
  local budget = parsed:capacity()
  local held = 0
  for id, pem in pairs(certs) do
    if budget <= 0 then break end
    budget = budget - 1
    if parsed:get(pem) then
      held = held + 1
    else
      if pair_for(id) then held = held + 1 else failed = failed + 1 end
      count = count + 1
      if pause and count % WARM_BATCH == 0 then
        ngx.sleep(0)
        if certs ~= routes.certs then return end
      end
    end
  end
  ready = held
  if count > 0 then
    update_time()
    ngx.log(ngx.NOTICE, "rampart: ", count - failed, " certificates parsed ahead in ",
      math.floor((now() - started) * 1000), " ms", failed > 0 and (", " .. failed .. " unusable") or "")
  end
end

-- How many certificates of its routing table each worker holds parsed, for the control server's /certs.
local counts = ngx.shared.rampart_routes

--- A worker's count after its last finished warm (the master's, for a worker that started since).
function _M.report()
  if counts and ngx.worker.id() then counts:set("certs_w" .. ngx.worker.id(), ready) end
end

local function warm_timer(premature)
  if premature or ngx.worker.exiting() then return end
  _M.warm(true)
  _M.report()
end

--- The control server's /certs: {"parsed": [count of worker 0, of worker 1, …]} (null: not reported):
--- the certificates of the routing table each worker holds parsed, once its last warm finished.
function _M.parsed_counts()
  local list = {}
  for id = 0, ngx.worker.count() - 1 do
    list[id + 1] = counts and counts:get("certs_w" .. id) or cjson.null
  end
  ngx.print(cjson.encode({ parsed = setmetatable(list, cjson.array_mt) }))
end

--- After a swap in a worker: parse its new certificates in the background.
function _M.warm_later()
  local ok, err = ngx.timer.at(0, warm_timer)
  if not ok then ngx.log(ngx.WARN, "rampart: certificates not parsed ahead: ", err) end
end

function _M.choose()
  local name = ssl.server_name()
  if not name then return ngx.exit(ngx.ERROR) end
  name = lower(name)
  if name:byte(-1) == 46 then name = name:sub(1, -2) end
  local site = routes.find(name)
  if not site or not site.https or type(site.cert) ~= "string" then return ngx.exit(ngx.ERROR) end
  local pair, err = pair_for(site.cert)
  if not pair then
    ngx.log(ngx.ERR, "rampart: certificate ", site.cert, " unusable: ", err)
    return ngx.exit(ngx.ERROR)
  end
  local ok, set_err = ssl.clear_certs()
  if ok then ok, set_err = ssl.set_cert(pair.cert) end
  if ok then ok, set_err = ssl.set_priv_key(pair.key) end
  if not ok then
    ngx.log(ngx.ERR, "rampart: setting certificate ", site.cert, " failed: ", set_err)
    return ngx.exit(ngx.ERROR)
  end
  tls_ocsp.staple(pair.ocsp)
end

return _M
