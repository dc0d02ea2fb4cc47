/*
 * The protection of fast-path sites (ngx_http_rampart_protect.c): what the Lua router's
 * rampart/protect.lua `check` does for a request that passes, in C, for the sites whose protection
 * rampart/fast_protect.lua could write as a program of this module.
 */

#ifndef _NGX_HTTP_RAMPART_PROTECT_H_INCLUDED_
#define _NGX_HTTP_RAMPART_PROTECT_H_INCLUDED_


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>


/* The request fields a program reads, as fast_protect.lua numbers them: the first ones where the
 * variables named beside them read them (rampart_field). */
#define RAMPART_FIELD_PATH        0     /* $uri */
#define RAMPART_FIELD_QUERY       1     /* $args */
#define RAMPART_FIELD_METHOD      2     /* $request_method */
#define RAMPART_FIELD_USER_AGENT  3     /* $http_user_agent */
#define RAMPART_FIELD_REFERER     4     /* $http_referer */
#define RAMPART_FIELD_HOST        5     /* $host */
#define RAMPART_FIELD_ADDR        6     /* $remote_addr: the keys of counters and bans */
#define RAMPART_FIELD_BIN_ADDR    7     /* $binary_remote_addr: the sets */
#define RAMPART_FIELDS            8
#define RAMPART_FIELD_VARIABLE    8     /* a variable read by name: a header's, or the country's */
#define RAMPART_FIELD_IP          9     /* the client address, looked up in a set */

/* What rampart_protect_run answers. */
#define RAMPART_PROTECT_PASS      0     /* nothing applies: the fast path serves the request */
#define RAMPART_PROTECT_LUA       1     /* something applies: the Lua router decides it all again */


typedef struct rampart_set_s      rampart_set_t;
typedef struct rampart_protect_s  rampart_protect_t;

/* lua-nginx-module's shared dict calls (those resty.core makes), as its FFI declares them. */
typedef int (*rampart_shdict_get_pt)(void *zone, const u_char *key, size_t key_len,
    int *value_type, u_char **str_value_buf, size_t *str_value_len, double *num_value,
    int *user_flags, int get_stale, int *is_stale, char **err);
typedef int (*rampart_shdict_incr_pt)(void *zone, const u_char *key, size_t key_len,
    double *value, char **err, int has_init, double init, long init_ttl, int *forcible);


/* What the programs of one routing table share: the node's bans (in its memory), the dicts. */
typedef struct {
    ngx_pool_t              *pool;
    rampart_set_t           *global_bans;
    rampart_shdict_get_pt    get;
    rampart_shdict_incr_pt   incr;
    void                    *limits;    /* rampart_limits: the rate counters */
    void                    *bans;      /* rampart_bans: the bans this node's rules set */
} rampart_protect_env_t;


ngx_int_t rampart_protect_run(ngx_http_request_t *r, rampart_protect_t *p,
    rampart_protect_env_t *env);
void rampart_protect_hold(rampart_protect_t *p);
void rampart_protect_release(void *p);


#endif /* _NGX_HTTP_RAMPART_PROTECT_H_INCLUDED_ */
