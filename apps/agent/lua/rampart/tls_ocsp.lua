-- OCSP responses stapled to handshakes. The agent fetches them from each certificate's responder
-- and posts them to the control server; they are checked against the certificate's chain and kept
-- in a shared zone (every worker, and across reloads) by certificate id and content, so a renewed
-- certificate never gets the response of the one before.
local routes = require "rampart.routes"
local ssl = require "ngx.ssl"
local ocsp = require "ngx.ocsp"

local ngx = ngx

local _M = {}

local SWAP_KEY_TEXT = "rampart routing swap"

--- The zone key of a certificate of the routing table.
function _M.key(id, pem)
  return id .. ":" .. ngx.md5(pem.cert)
end

--- In ssl_certificate_by_lua: staples the kept response of `key`, if any (ignored by clients that
--- did not ask for one).
function _M.staple(key)
  local zone = ngx.shared.rampart_ocsp
  local response = zone and zone:get(key)
  if not response then return end
  local ok, err = ocsp.set_ocsp_status_resp(response)
  if not ok then ngx.log(ngx.WARN, "rampart: stapling ", key, " failed: ", err) end
end

--- The control server's /ocsp?cert=<id>&ttl=<seconds>: the DER response, base64, as the body.
function _M.put_request()
  if ngx.req.get_method() ~= "POST" then return ngx.exit(405) end
  -- Only the agent may post: it proves it knows this node's secret, as for /swap.
  local key = ngx.var.http_x_rampart_swap_key
  if routes.secret == "" or key ~= ngx.encode_base64(ngx.hmac_sha1(routes.secret, SWAP_KEY_TEXT)) then
    return ngx.exit(403)
  end
  local id, ttl = ngx.var.arg_cert, tonumber(ngx.var.arg_ttl)
  local pem = id and routes.certs[id]
  if not pem then return ngx.exit(404) end
  if not ttl or ttl < 60 or ttl > 7 * 86400 then return ngx.exit(400) end
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  local response = body and ngx.decode_base64(body)
  if not response then return ngx.exit(400) end
  local chain, err = ssl.cert_pem_to_der(pem.cert)
  if not chain then return ngx.exit(422) end
  local valid, invalid = ocsp.validate_ocsp_response(response, chain)
  if not valid then
    ngx.log(ngx.WARN, "rampart: OCSP response for certificate ", id, " refused: ", invalid)
    return ngx.exit(422)
  end
  local zone = ngx.shared.rampart_ocsp
  local ok, set_err = zone:set(_M.key(id, pem), response, ttl)
  if not ok then
    ngx.log(ngx.ERR, "rampart: OCSP response for certificate ", id, " not kept: ", set_err)
    return ngx.exit(507)
  end
  ngx.print("ok")
end

return _M
