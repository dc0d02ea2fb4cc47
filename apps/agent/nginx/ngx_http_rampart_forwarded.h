/*
 * $rampart_forwarded (ngx_http_rampart_forwarded.c): X-Forwarded-For, X-Real-IP and
 * X-Forwarded-Proto of a proxied request in one proxy_set_header.
 */

#ifndef _NGX_HTTP_RAMPART_FORWARDED_H_INCLUDED_
#define _NGX_HTTP_RAMPART_FORWARDED_H_INCLUDED_


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>


/* Declares $rampart_forwarded (the module's preconfiguration). */
ngx_int_t rampart_forwarded_add_variable(ngx_conf_t *cf);


#endif /* _NGX_HTTP_RAMPART_FORWARDED_H_INCLUDED_ */
