-- Certificate of an HTTPS handshake, chosen by SNI from the routing table. A name no HTTPS site
-- serves (or no SNI at all) ends the handshake, as `ssl_reject_handshake` would.
local routes = require "rampart.routes"
local ssl = require "ngx.ssl"

local ngx = ngx
local lower = string.lower

local _M = {}

-- Parsed certificates of this worker, by the routing table's entry: a new table (a reload or a
-- swap of the routing data) starts afresh, and the old entries go with the old table.
local parsed = setmetatable({}, { __mode = "k" })

local function pair_for(id)
  local pem = routes.certs[id]
  if not pem then return nil end
  local pair = parsed[pem]
  if pair then return pair end
  local cert, err = ssl.parse_pem_cert(pem.cert)
  if not cert then return nil, err end
  local key, key_err = ssl.parse_pem_priv_key(pem.key)
  if not key then return nil, key_err end
  pair = { cert = cert, key = key }
  parsed[pem] = pair
  return pair
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
end

return _M
