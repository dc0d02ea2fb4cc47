/*
 * The edge's access log (ngx_http_rampart_log.c): the line of the agent's `log_format
 * rampart_access`, written without nginx's log module.
 */

#ifndef _NGX_HTTP_RAMPART_LOG_H_INCLUDED_
#define _NGX_HTTP_RAMPART_LOG_H_INCLUDED_


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>


typedef struct rampart_log_s  rampart_log_t;


/* `rampart_access_log path [buffer=size [flush=time]] [country] [waf];` or `... off;` into *log
 * (NGX_CONF_UNSET_PTR until then; NULL: off). */
char *rampart_log_conf(ngx_conf_t *cf, rampart_log_t **log);
void rampart_log_write(ngx_http_request_t *r, rampart_log_t *log);


#endif /* _NGX_HTTP_RAMPART_LOG_H_INCLUDED_ */
