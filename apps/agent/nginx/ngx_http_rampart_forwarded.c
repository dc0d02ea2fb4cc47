/*
 * $rampart_forwarded: the three forwarding headers of a proxied request in one variable, for
 * `location /` (render/http-server.ts):
 *
 *     proxy_set_header X-Forwarded-For $rampart_forwarded;
 *     proxy_set_header X-Real-IP "";
 *     proxy_set_header X-Forwarded-Proto "";
 *
 * The value is $proxy_add_x_forwarded_for, then the X-Real-IP ($remote_addr) and
 * X-Forwarded-Proto ($scheme) lines, so the origin receives the same three headers as from three
 * proxy_set_header lines with those variables. The proxy module runs a script for every header it
 * sets (the key, the value's length twice, the value), about 330 instructions of a proxied request
 * each (bench/edge-proxy-instructions.ts); one header instead of three saves two of them. The empty
 * ones send nothing: they only drop what a client sent under those names.
 *
 * A line break in the value would start a header of the client's choosing. The values are the ones
 * nginx itself sends in those headers from the variables above, and nginx refuses CR and LF in a
 * request's header values over HTTP/1, HTTP/2 and HTTP/3 (the client's X-Forwarded-For); an
 * address and a scheme have none.
 */

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ngx_http_rampart_forwarded.h"


#define RAMPART_REAL_IP          CRLF "X-Real-IP: "
#define RAMPART_FORWARDED_PROTO  CRLF "X-Forwarded-Proto: "


static ngx_str_t  rampart_forwarded_name = ngx_string("rampart_forwarded");
static ngx_str_t  rampart_add_xff_name = ngx_string("proxy_add_x_forwarded_for");


static ngx_int_t
rampart_forwarded_variable(ngx_http_request_t *r, ngx_http_variable_value_t *v, uintptr_t data)
{
    u_char                     *p;
    size_t                      len;
    ngx_str_t                   scheme, *addr;
    ngx_http_variable_value_t  *xff;

    /* As $proxy_add_x_forwarded_for: the client's X-Forwarded-For, then its address. */
    xff = ngx_http_get_indexed_variable(r, (ngx_uint_t) data);
    if (xff == NULL) {
        return NGX_ERROR;
    }

    addr = &r->connection->addr_text;

    /* As $scheme. */
#if (NGX_HTTP_SSL)
    if (r->connection->ssl) {
        ngx_str_set(&scheme, "https");

    } else
#endif
    {
        ngx_str_set(&scheme, "http");
    }

    len = (xff->not_found ? 0 : xff->len) + sizeof(RAMPART_REAL_IP) - 1 + addr->len
          + sizeof(RAMPART_FORWARDED_PROTO) - 1 + scheme.len;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NGX_ERROR;
    }

    v->data = p;

    if (!xff->not_found) {
        p = ngx_cpymem(p, xff->data, xff->len);
    }

    p = ngx_cpymem(p, RAMPART_REAL_IP, sizeof(RAMPART_REAL_IP) - 1);
    p = ngx_cpymem(p, addr->data, addr->len);
    p = ngx_cpymem(p, RAMPART_FORWARDED_PROTO, sizeof(RAMPART_FORWARDED_PROTO) - 1);
    p = ngx_cpymem(p, scheme.data, scheme.len);

    v->len = p - v->data;
    v->valid = 1;
    v->no_cacheable = 0;
    v->not_found = 0;

    return NGX_OK;
}


ngx_int_t
rampart_forwarded_add_variable(ngx_conf_t *cf)
{
    ngx_int_t             index;
    ngx_http_variable_t  *v;

    v = ngx_http_add_variable(cf, &rampart_forwarded_name, NGX_HTTP_VAR_NOHASH);
    if (v == NULL) {
        return NGX_ERROR;
    }

    index = ngx_http_get_variable_index(cf, &rampart_add_xff_name);
    if (index == NGX_ERROR) {
        return NGX_ERROR;
    }

    v->get_handler = rampart_forwarded_variable;
    v->data = (uintptr_t) index;

    return NGX_OK;
}
