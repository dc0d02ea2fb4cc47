/*
 * The edge's fast path: the router and the balancer of rampart/router.lua and rampart/balancer.lua
 * for the sites that need nothing of them but their id and their one origin.
 *
 * The Lua router decides everything a site may need (redirects, protection, signed URLs, the WAF,
 * cache rules, headers...). Entering Lua twice a request (rewrite_by_lua, balancer_by_lua) costs
 * about 6,500 instructions on its own, a third of a plain proxied request. routes.lua hands this
 * module, through LuaJIT's FFI, every host name of the routing table it installs, with flags that
 * say whether the host's site needs the Lua router at all (routes.lua's `fast_flags`: a list of
 * the site fields that are known to be neutral, so a field added later sends the site to Lua until
 * it is taught here). `rampart_route` (the rewrite phase of `location /`) turns nginx's compression
 * off for the requests of a site without gzip, whoever routes them. For a request whose site needs
 * nothing, it then sets $rampart_site_id, sends a path one of the site's cache rules matches to
 * that rule's named location (as the router's ngx.exec does), and otherwise leaves the rewrite
 * phase before the Lua router runs; `rampart_fast_peer` (in
 * the upstream block, after balancer_by_lua and before keepalive) then connects to the site's
 * origin without the Lua balancer. Every other request runs the Lua router as before; when it
 * reaches the upstream with the id of a site of one origin (the Lua balancer has nothing to choose
 * for it), the module gives it that origin too, and the Lua balancer serves the rest.
 *
 * The table lives in each process's memory: built in the master when the config loads (init_by_lua)
 * and inherited by the workers, rebuilt by a worker when its routing table is swapped. A request
 * copies what it needs into its own pool, so a table can be freed while requests are in flight.
 *
 * $rampart_forwarded (ngx_http_rampart_forwarded.c) gives `location /` its three forwarding
 * headers in one proxy_set_header.
 *
 * The module also gives rampart/ngx_var.lua the variables the Lua code reads on every request by
 * index: `rampart_lua_vars` (written by the agent with the names its config declares) resolves them
 * when the config loads, and `rampart_var_get` reads one through nginx's index, where a read by name
 * lowercases and hashes the name and looks it up in the variables hash each time.
 */

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ngx_http_rampart_forwarded.h"
#include "ngx_http_rampart_log.h"
#include "ngx_http_rampart_protect.h"


#define RAMPART_HTTP        0x01    /* the site takes the fast path on the plain listener */
#define RAMPART_HTTPS       0x02    /* ... and on the TLS listener */
#define RAMPART_NO_GZIP     0x04    /* the edge does not compress the site's answers */
#define RAMPART_WEBSOCKET   0x08    /* a request with Upgrade goes to the Lua router */
#define RAMPART_PEER        0x10    /* one origin: the module gives it to the upstream */

#define RAMPART_ACME_PREFIX "/.well-known/acme-challenge/"


typedef struct rampart_host_s  rampart_host_t;

/* A cache rule of a fast site (routes.lua's `cache_chain` reads the same): the first that matches
 * the path sends the request to its named location. */
typedef struct {
    ngx_str_t           text;       /* the path prefix, or the extension (lower case) */
    ngx_str_t           location;   /* "@rampart_..." */
    unsigned            ext:1;
    unsigned            ignore_query:1;
} rampart_cache_rule_t;

#define RAMPART_CACHE_RULES  256

struct rampart_host_s {
    rampart_host_t     *next;
    ngx_uint_t          hash;
    ngx_str_t           name;       /* "www.example.com", or ".example.com" for "*.example.com" */
    ngx_uint_t          flags;      /* 0: the Lua router serves this host */
    ngx_str_t           sid;
    ngx_str_t           peer_name;  /* as $upstream_addr shows it */
    socklen_t           socklen;
    ngx_sockaddr_t      sockaddr;
    rampart_protect_t  *protect;    /* the site's protection, run here; NULL: none */
    rampart_cache_rule_t  *cache;   /* the site's cache rules, in order */
    ngx_uint_t          ncache;
};


typedef struct {
    ngx_uint_t          size;       /* buckets of each hash, a power of 2 */
    rampart_host_t    **exact;
    rampart_host_t    **wild;
    ngx_uint_t          acme;       /* ACME challenges are answered: their path goes to Lua */
    rampart_protect_env_t  env;     /* what the sites' protection programs share */
} rampart_table_t;


typedef struct {
    ngx_str_t           name;
    ngx_uint_t          index;
} rampart_lua_var_t;


typedef struct {
    rampart_table_t    *table;
    ngx_int_t           site_id_index;
    ngx_int_t           ignore_query_index;     /* $rampart_ignore_query: 1 for a rule that ignores it */
    ngx_array_t        *lua_vars;   /* rampart_lua_var_t, by slot; NULL: none */
} rampart_main_conf_t;


typedef struct {
    ngx_flag_t          route;
    rampart_log_t      *log;        /* rampart_access_log; NULL: off */
} rampart_loc_conf_t;


typedef struct {
    ngx_http_upstream_init_pt       original_init_upstream;
    ngx_http_upstream_init_peer_pt  original_init_peer;
} rampart_srv_conf_t;


/* What a fast request took from the table: its own copy, in its pool. */
typedef struct {
    ngx_str_t           peer_name;
    socklen_t           socklen;
    ngx_sockaddr_t      sockaddr;
} rampart_ctx_t;


static void *rampart_create_main_conf(ngx_conf_t *cf);
static void *rampart_create_srv_conf(ngx_conf_t *cf);
static void *rampart_create_loc_conf(ngx_conf_t *cf);
static char *rampart_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child);
static char *rampart_route(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *rampart_fast_peer(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *rampart_lua_vars(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *rampart_access_log(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static ngx_int_t rampart_preconfiguration(ngx_conf_t *cf);
static ngx_int_t rampart_postconfiguration(ngx_conf_t *cf);
static ngx_int_t rampart_init_process(ngx_cycle_t *cycle);
static void rampart_table_cleanup(void *data);

/* The FFI interface of routes.lua (rampart/fast.lua declares the same). */
void *rampart_fast_new(size_t hosts);
int rampart_fast_add(void *table, const u_char *host, size_t host_len, unsigned flags,
    const u_char *sid, size_t sid_len, const char *ip, unsigned port, void *protect,
    const u_char *cache, size_t cache_len);
void *rampart_fast_protection(void *table);
void rampart_fast_acme(void *table, int on);
void rampart_fast_free(void *table);
int rampart_fast_install(void *table);

/* The FFI interface of rampart/ngx_var.lua (which declares the same). */
int rampart_var_name(unsigned slot, const u_char **name, size_t *len);
int rampart_var_get(ngx_http_request_t *r, unsigned slot, u_char **value, size_t *value_len,
    char **err);


static ngx_command_t  rampart_commands[] = {

    { ngx_string("rampart_route"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      rampart_route,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("rampart_fast_peer"),
      NGX_HTTP_UPS_CONF|NGX_CONF_NOARGS,
      rampart_fast_peer,
      NGX_HTTP_SRV_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("rampart_lua_vars"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_1MORE,
      rampart_lua_vars,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("rampart_access_log"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      rampart_access_log,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

      ngx_null_command
};


static ngx_http_module_t  rampart_module_ctx = {
    rampart_preconfiguration,              /* preconfiguration */
    rampart_postconfiguration,             /* postconfiguration */

    rampart_create_main_conf,              /* create main configuration */
    NULL,                                  /* init main configuration */

    rampart_create_srv_conf,               /* create server configuration */
    NULL,                                  /* merge server configuration */

    rampart_create_loc_conf,               /* create location configuration */
    rampart_merge_loc_conf                 /* merge location configuration */
};


ngx_module_t  ngx_http_rampart_module = {
    NGX_MODULE_V1,
    &rampart_module_ctx,                   /* module context */
    rampart_commands,                      /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    NULL,                                  /* init module */
    rampart_init_process,                  /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    NULL,                                  /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


/*
 * The configuration rampart_fast_install writes to and rampart_var_name reads: the one being loaded
 * while the master reads a config (init_by_lua runs inside it, after our create_main_conf), the
 * running one in a worker.
 */
static rampart_main_conf_t  *rampart_install_target;


/* Tables */

static rampart_host_t *
rampart_lookup(rampart_host_t **buckets, ngx_uint_t size, u_char *name, size_t len)
{
    ngx_uint_t       hash;
    rampart_host_t  *host;

    hash = ngx_hash_key(name, len);

    for (host = buckets[hash & (size - 1)]; host; host = host->next) {
        if (host->hash == hash && host->name.len == len
            && ngx_memcmp(host->name.data, name, len) == 0)
        {
            return host;
        }
    }

    return NULL;
}


/* As routes.lua's `find`: the exact name, else the longest wildcard that matches. */
static rampart_host_t *
rampart_find(rampart_table_t *table, u_char *name, size_t len)
{
    u_char          *p, *last;
    rampart_host_t  *host;

    host = rampart_lookup(table->exact, table->size, name, len);
    if (host) {
        return host;
    }

    last = name + len;

    for (p = name; p < last; p++) {
        if (*p != '.') {
            continue;
        }

        host = rampart_lookup(table->wild, table->size, p, last - p);
        if (host) {
            return host;
        }
    }

    return NULL;
}


void *
rampart_fast_new(size_t hosts)
{
    ngx_uint_t        size;
    rampart_table_t  *table;

    size = 16;
    while (size < hosts * 2 && size < (1 << 24)) {
        size <<= 1;
    }

    table = ngx_calloc(sizeof(rampart_table_t) + 2 * size * sizeof(rampart_host_t *),
                       ngx_cycle->log);
    if (table == NULL) {
        return NULL;
    }

    table->size = size;
    table->exact = (rampart_host_t **) (table + 1);
    table->wild = table->exact + size;

    return table;
}


/*
 * The cache rules of `spec` (fast.lua's `cache_spec`: for each rule "p" for a path prefix or "e" for
 * an extension, "1" when it ignores the query else "0", the prefix or extension, a tab, the named
 * location, a line feed) into `rules` (NULL: only counted), their text pointing into `spec`.
 * Returns how many, or NGX_ERROR for a spec routes.lua would not have let through.
 */
static ngx_int_t
rampart_cache_parse(u_char *spec, size_t len, rampart_cache_rule_t *rules)
{
    u_char                *p, *q, *tab, *end, *last;
    ngx_uint_t             n;
    rampart_cache_rule_t   rule;

    n = 0;
    last = spec + len;

    for (p = spec; p < last; p = end + 1) {
        end = ngx_strlchr(p, last, '\n');
        if (end == NULL || end - p < 3 || (p[0] != 'p' && p[0] != 'e') || (p[1] != '0' && p[1] != '1')) {
            return NGX_ERROR;
        }

        tab = ngx_strlchr(p + 2, end, '\t');
        if (tab == NULL || tab == p + 2) {
            return NGX_ERROR;
        }

        rule.ext = p[0] == 'e';
        rule.ignore_query = p[1] == '1';
        rule.text.data = p + 2;
        rule.text.len = tab - rule.text.data;
        rule.location.data = tab + 1;
        rule.location.len = end - rule.location.data;

        if (rule.text.len > (rule.ext ? 16 : 512)
            || rule.location.len <= sizeof("@rampart_") - 1 || rule.location.len > 64
            || ngx_strncmp(rule.location.data, "@rampart_", sizeof("@rampart_") - 1) != 0)
        {
            return NGX_ERROR;
        }

        for (q = rule.location.data + 1; q < end; q++) {
            if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_')) {
                return NGX_ERROR;
            }
        }

        if (rule.ext) {
            for (q = rule.text.data; q < tab; q++) {
                if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9'))) {
                    return NGX_ERROR;
                }
            }

        } else if (rule.text.data[0] != '/') {
            return NGX_ERROR;
        }

        if (++n > RAMPART_CACHE_RULES) {
            return NGX_ERROR;
        }

        if (rules) {
            rules[n - 1] = rule;
        }
    }

    return n;
}


/*
 * Adds one host of the routing table. `flags` 0: the Lua router serves it. A name met again is
 * ignored (routes.lua's index keeps the first too), and so is a wildcard no name can match; a site
 * whose origin address does not parse goes to Lua. Returns 0, or -1 for a name or id this module
 * will not take or no memory (the caller then installs no table, so that every request goes to Lua).
 */
int
rampart_fast_add(void *t, const u_char *host, size_t host_len, unsigned flags,
    const u_char *sid, size_t sid_len, const char *ip, unsigned port, void *protect,
    const u_char *cache, size_t cache_len)
{
    u_char               *p, *name;
    size_t                name_len;
    ngx_int_t             ncache;
    ngx_uint_t            wild;
    rampart_host_t       *entry, **bucket;
    rampart_table_t      *table;
    struct sockaddr_in   *sin;
#if (NGX_HAVE_INET6)
    struct sockaddr_in6  *sin6;
#endif
    u_char                text[NGX_SOCKADDR_STRLEN];

    table = t;

    if (table == NULL || host_len == 0 || host_len > 253 || sid_len == 0 || sid_len > 20) {
        return -1;
    }

    wild = host[0] == '*';
    name = (u_char *) host + wild;
    name_len = host_len - wild;

    if (wild && (name_len < 2 || name[0] != '.')) {
        /* No name matches it in routes.lua's `find` either ("*" is always followed by a dot). */
        return 0;
    }

    bucket = wild ? table->wild : table->exact;

    if (rampart_lookup(bucket, table->size, name, name_len)) {
        return 0;
    }

    /* The cache rules of a site the module routes (the Lua router chooses the others'). */
    ncache = 0;

    if ((flags & (RAMPART_HTTP | RAMPART_HTTPS)) && cache_len) {
        ncache = rampart_cache_parse((u_char *) cache, cache_len, NULL);
        if (ncache == NGX_ERROR) {
            return -1;
        }
    }

    entry = ngx_calloc(sizeof(rampart_host_t) + ncache * sizeof(rampart_cache_rule_t)
                       + (ncache ? cache_len : 0) + name_len + sid_len + NGX_SOCKADDR_STRLEN,
                       ngx_cycle->log);
    if (entry == NULL) {
        return -1;
    }

    p = (u_char *) (entry + 1);

    if (ncache) {
        entry->cache = (rampart_cache_rule_t *) p;
        entry->ncache = ncache;
        p += ncache * sizeof(rampart_cache_rule_t);
        ngx_memcpy(p, cache, cache_len);
        (void) rampart_cache_parse(p, cache_len, entry->cache);
        p += cache_len;
    }

    entry->name.data = p;
    entry->name.len = name_len;
    p = ngx_cpymem(p, name, name_len);
    entry->hash = ngx_hash_key(name, name_len);
    entry->flags = flags;
    entry->protect = (flags & (RAMPART_HTTP | RAMPART_HTTPS)) ? protect : NULL;

    if (flags & RAMPART_PEER) {
        if (port == 0 || port > 65535) {
            ngx_free(entry);
            return -1;
        }

        entry->sid.data = p;
        entry->sid.len = sid_len;
        p = ngx_cpymem(p, sid, sid_len);

        sin = &entry->sockaddr.sockaddr_in;

        if (inet_pton(AF_INET, ip, &sin->sin_addr) == 1) {
            sin->sin_family = AF_INET;
            sin->sin_port = htons((in_port_t) port);
            entry->socklen = sizeof(struct sockaddr_in);

#if (NGX_HAVE_INET6)
        } else if (inet_pton(AF_INET6, ip, &entry->sockaddr.sockaddr_in6.sin6_addr) == 1) {
            sin6 = &entry->sockaddr.sockaddr_in6;
            sin6->sin6_family = AF_INET6;
            sin6->sin6_port = htons((in_port_t) port);
            entry->socklen = sizeof(struct sockaddr_in6);
#endif

        } else {
            /* An address the Lua balancer cannot use either: it answers 502 there. */
            entry->flags &= RAMPART_NO_GZIP;
            entry->protect = NULL;
            entry->ncache = 0;
            goto add;
        }

        /* The name the Lua balancer's set_current_peer gives $upstream_addr. */
        entry->peer_name.len = ngx_sock_ntop(&entry->sockaddr.sockaddr, entry->socklen,
                                             text, NGX_SOCKADDR_STRLEN, 1);
        entry->peer_name.data = p;
        ngx_memcpy(p, text, entry->peer_name.len);
    }

add:

    /* The table holds the site's program until it is freed (rampart_fast_free). */
    if (entry->protect) {
        rampart_protect_hold(entry->protect);
    }

    bucket += entry->hash & (table->size - 1);
    entry->next = *bucket;
    *bucket = entry;

    return 0;
}


/*
 * What the protection programs of `table` share (ngx_http_rampart_protect.c builds them in it and
 * frees them with it); NULL without memory.
 */
void *
rampart_fast_protection(void *t)
{
    rampart_table_t  *table = t;

    if (table == NULL) {
        return NULL;
    }

    if (table->env.pool == NULL) {
        table->env.pool = ngx_create_pool(16384, ngx_cycle->log);
    }

    return table->env.pool ? &table->env : NULL;
}


void
rampart_fast_acme(void *t, int on)
{
    rampart_table_t  *table = t;

    if (table) {
        table->acme = on ? 1 : 0;
    }
}


void
rampart_fast_free(void *t)
{
    ngx_uint_t        i;
    rampart_host_t   *host, *next;
    rampart_table_t  *table;

    table = t;

    if (table == NULL) {
        return;
    }

    /* `wild` follows `exact` in the same block: one loop frees both. */
    for (i = 0; i < 2 * table->size; i++) {
        for (host = table->exact[i]; host; host = next) {
            next = host->next;
            if (host->protect) {
                rampart_protect_release(host->protect);
            }
            ngx_free(host);
        }
    }

    if (table->env.pool) {
        ngx_destroy_pool(table->env.pool);
    }

    ngx_free(table);
}


/*
 * Makes `table` (NULL: none, every request goes to Lua) the one requests of this process see, and
 * frees the one before. Returns -1 when this process has no configuration of the module to hold
 * it (the table is freed).
 */
int
rampart_fast_install(void *table)
{
    rampart_table_t  *old;

    if (rampart_install_target == NULL) {
        rampart_fast_free(table);
        return -1;
    }

    old = rampart_install_target->table;
    rampart_install_target->table = table;
    rampart_fast_free(old);

    return 0;
}


/* Variables */

/*
 * The name of slot `slot` of rampart_lua_vars, lowercase and without its `$`, in the configuration
 * init_by_lua runs in (ngx_var.lua maps names to slots once, there). Returns 0, or -1 past the last.
 */
int
rampart_var_name(unsigned slot, const u_char **name, size_t *len)
{
    rampart_lua_var_t  *var;

    if (rampart_install_target == NULL || rampart_install_target->lua_vars == NULL
        || slot >= rampart_install_target->lua_vars->nelts)
    {
        return -1;
    }

    var = rampart_install_target->lua_vars->elts;
    *name = var[slot].name.data;
    *len = var[slot].name.len;

    return 0;
}


/*
 * ngx.var's read of the variable of slot `slot`, as lua-nginx-module's ngx_http_lua_ffi_var_get
 * reads it by name: NGX_OK with its value, NGX_DECLINED when it has none, NGX_ERROR (and `err`) in
 * a context without a request. A variable the name's lookup finds in the variables hash ends there
 * in ngx_http_get_flushed_variable on its index too (every one listed is indexed), so what is
 * cached and for how long is the same; one a prefix names (http_*, cookie_*, arg_*) the lookup
 * computes again at each read and never keeps, and so does this.
 */
int
rampart_var_get(ngx_http_request_t *r, unsigned slot, u_char **value, size_t *value_len,
    char **err)
{
    ngx_http_variable_t        *v;
    rampart_lua_var_t          *var;
    rampart_main_conf_t        *mcf;
    ngx_http_variable_value_t  *vv, fresh;
    ngx_http_core_main_conf_t  *cmcf;

    if (r == NULL) {
        *err = "no request object found";
        return NGX_ERROR;
    }

    if (r->connection->fd == (ngx_socket_t) -1) {
        *err = "API disabled in the current context";
        return NGX_ERROR;
    }

    mcf = ngx_http_get_module_main_conf(r, ngx_http_rampart_module);

    if (mcf->lua_vars == NULL || slot >= mcf->lua_vars->nelts) {
        *err = "no such variable slot";
        return NGX_ERROR;
    }

    var = mcf->lua_vars->elts;
    cmcf = ngx_http_get_module_main_conf(r, ngx_http_core_module);
    v = cmcf->variables.elts;
    v += var[slot].index;

    if (v->flags & NGX_HTTP_VAR_PREFIX) {
        ngx_memzero(&fresh, sizeof(ngx_http_variable_value_t));
        vv = v->get_handler(r, &fresh, v->data) == NGX_OK ? &fresh : NULL;

    } else {
        vv = ngx_http_get_flushed_variable(r, var[slot].index);
    }

    if (vv == NULL || vv->not_found) {
        return NGX_DECLINED;
    }

    *value = vv->data;
    *value_len = vv->len;

    return NGX_OK;
}


/* A request's own copy of a host's origin, with `extra` bytes of room after its name. */
static rampart_ctx_t *
rampart_peer_ctx(ngx_http_request_t *r, rampart_host_t *host, size_t extra)
{
    rampart_ctx_t  *ctx;

    ctx = ngx_palloc(r->pool, sizeof(rampart_ctx_t) + host->peer_name.len + extra);
    if (ctx == NULL) {
        return NULL;
    }

    ctx->peer_name.data = (u_char *) (ctx + 1);
    ctx->peer_name.len = host->peer_name.len;
    ngx_memcpy(ctx->peer_name.data, host->peer_name.data, host->peer_name.len);
    ctx->socklen = host->socklen;
    ngx_memcpy(&ctx->sockaddr, &host->sockaddr, host->socklen);

    return ctx;
}


/* The log phase: rampart_access_log (ngx_http_rampart_log.c) */

static ngx_int_t
rampart_log_handler(ngx_http_request_t *r)
{
    rampart_loc_conf_t  *lcf;

    lcf = ngx_http_get_module_loc_conf(r, ngx_http_rampart_module);

    if (lcf->log) {
        rampart_log_write(r, lcf->log);
    }

    return NGX_OK;
}


/* The rewrite phase */

/* As routes.lua's `cache_chain`: the first rule whose prefix begins the path, or whose extension
 * (compared in lower case) follows its last dot, not the path's first character. */
static rampart_cache_rule_t *
rampart_cache_find(rampart_host_t *host, ngx_str_t *uri)
{
    u_char                *p, *q;
    ngx_uint_t             i;
    rampart_cache_rule_t  *rule;

    for (i = 0; i < host->ncache; i++) {
        rule = &host->cache[i];

        if (!rule->ext) {
            if (uri->len >= rule->text.len
                && ngx_memcmp(uri->data, rule->text.data, rule->text.len) == 0)
            {
                return rule;
            }

            continue;
        }

        if (uri->len <= rule->text.len + 1 || uri->data[uri->len - rule->text.len - 1] != '.') {
            continue;
        }

        p = uri->data + uri->len - rule->text.len;

        for (q = rule->text.data; q < rule->text.data + rule->text.len; p++, q++) {
            if (ngx_tolower(*p) != *q) {
                break;
            }
        }

        if (q == rule->text.data + rule->text.len) {
            return rule;
        }
    }

    return NULL;
}


/*
 * Sends the request to the rule's named location, as the Lua router's ngx.exec does: with
 * $rampart_ignore_query 1 for a rule that ignores the query (the cache key's map reads it), and the
 * reference ngx_http_named_location takes given back.
 */
static ngx_int_t
rampart_cache_enter(ngx_http_request_t *r, rampart_main_conf_t *mcf, rampart_cache_rule_t *rule)
{
    ngx_http_variable_value_t  *vv;

    if (rule->ignore_query) {
        vv = &r->variables[mcf->ignore_query_index];
        vv->data = (u_char *) "1";
        vv->len = 1;
        vv->valid = 1;
        vv->no_cacheable = 0;
        vv->not_found = 0;
        vv->escape = 0;
    }

    (void) ngx_http_named_location(r, &rule->location);
    ngx_http_finalize_request(r, NGX_DONE);

    return NGX_DONE;
}


static ngx_int_t
rampart_route_handler(ngx_http_request_t *r)
{
    u_char                     *p;
    ngx_uint_t                  want;
    rampart_cache_rule_t       *rule;
    rampart_ctx_t              *ctx;
    rampart_host_t             *host;
    rampart_table_t            *table;
    rampart_loc_conf_t         *lcf;
    rampart_main_conf_t        *mcf;
    ngx_http_variable_value_t  *vv;
    ngx_http_core_main_conf_t  *cmcf;

    lcf = ngx_http_get_module_loc_conf(r, ngx_http_rampart_module);
    if (!lcf->route || r != r->main || r->headers_in.server.len == 0) {
        return NGX_DECLINED;
    }

    mcf = ngx_http_get_module_main_conf(r, ngx_http_rampart_module);
    table = mcf->table;
    if (table == NULL) {
        return NGX_DECLINED;
    }

    want = RAMPART_HTTP;

#if (NGX_HTTP_SSL)
    if (r->connection->ssl) {
        want = RAMPART_HTTPS;
    }
#endif

    /* $host: the Host header, validated and in lower case. */
    host = rampart_find(table, r->headers_in.server.data, r->headers_in.server.len);
    if (host == NULL) {
        return NGX_DECLINED;
    }

#if (NGX_HTTP_GZIP)
    if (host->flags & RAMPART_NO_GZIP) {
        /* Whoever routes the request: the Lua router leaves Accept-Encoding on it when the module
         * holds a table (routes.lua's `module_table`), and the origin and the cache's variants see
         * the client's header. */
        r->gzip_tested = 1;
        r->gzip_ok = 0;
    }
#endif

    if (!(host->flags & want)) {
        return NGX_DECLINED;
    }

    if (want == RAMPART_HTTP && table->acme
        && r->uri.len >= sizeof(RAMPART_ACME_PREFIX) - 1
        && ngx_strncmp(r->uri.data, RAMPART_ACME_PREFIX, sizeof(RAMPART_ACME_PREFIX) - 1) == 0)
    {
        return NGX_DECLINED;
    }

    if ((host->flags & RAMPART_WEBSOCKET) && r->headers_in.upgrade) {
        return NGX_DECLINED;
    }

    /* Protection: anything it would act on goes to the Lua router, which decides it all again. */
    if (host->protect
        && rampart_protect_run(r, host->protect, &table->env) != RAMPART_PROTECT_PASS)
    {
        return NGX_DECLINED;
    }

    ctx = rampart_peer_ctx(r, host, host->sid.len);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* The site id lives in the room after the peer's name. */
    p = ctx->peer_name.data + ctx->peer_name.len;

    vv = &r->variables[mcf->site_id_index];
    vv->data = p;
    vv->len = host->sid.len;
    vv->valid = 1;
    vv->no_cacheable = 0;
    vv->not_found = 0;
    vv->escape = 0;
    ngx_memcpy(p, host->sid.data, host->sid.len);

    ngx_http_set_ctx(r, ctx, ngx_http_rampart_module);

    if (host->ncache) {
        rule = rampart_cache_find(host, &r->uri);
        if (rule) {
            return rampart_cache_enter(r, mcf, rule);
        }
    }

    /* Leave the rewrite phase: the next handler is the first of the phase after it. */
    cmcf = ngx_http_get_module_main_conf(r, ngx_http_core_module);
    r->phase_handler = cmcf->phase_engine.handlers[r->phase_handler].next - 1;

    return NGX_DECLINED;
}


/* The balancer */

static ngx_int_t
rampart_get_peer(ngx_peer_connection_t *pc, void *data)
{
    rampart_ctx_t  *ctx = data;

    pc->cached = 0;
    pc->connection = NULL;
    pc->sockaddr = &ctx->sockaddr.sockaddr;
    pc->socklen = ctx->socklen;
    pc->name = &ctx->peer_name;

    return NGX_OK;
}


static void
rampart_free_peer(ngx_peer_connection_t *pc, void *data, ngx_uint_t state)
{
    /* One origin, as the Lua balancer's: a failed attempt is not retried. */
    if (pc->tries) {
        pc->tries--;
    }
}


#if (NGX_HTTP_SSL)

static ngx_int_t
rampart_set_session(ngx_peer_connection_t *pc, void *data)
{
    return NGX_OK;
}


static void
rampart_save_session(ngx_peer_connection_t *pc, void *data)
{
}

#endif


/*
 * The origin of a request the Lua router served (or that left `location /`, which clears the
 * modules' contexts): the one origin of the site the router gave the request, found by its Host as
 * the router found it, when the two agree on the site. NULL: the Lua balancer chooses.
 */
static rampart_ctx_t *
rampart_routed_peer(ngx_http_request_t *r)
{
    rampart_host_t             *host;
    rampart_table_t            *table;
    rampart_main_conf_t        *mcf;
    ngx_http_variable_value_t  *sid;

    mcf = ngx_http_get_module_main_conf(r, ngx_http_rampart_module);
    table = mcf->table;

    if (table == NULL || mcf->site_id_index == NGX_ERROR || r->headers_in.server.len == 0) {
        return NULL;
    }

    host = rampart_find(table, r->headers_in.server.data, r->headers_in.server.len);
    if (host == NULL || !(host->flags & RAMPART_PEER)) {
        return NULL;
    }

    sid = &r->variables[mcf->site_id_index];
    if (!sid->valid || sid->not_found || sid->len != host->sid.len
        || ngx_memcmp(sid->data, host->sid.data, sid->len) != 0)
    {
        return NULL;
    }

    return rampart_peer_ctx(r, host, 0);
}


static ngx_int_t
rampart_init_peer(ngx_http_request_t *r, ngx_http_upstream_srv_conf_t *us)
{
    rampart_ctx_t       *ctx;
    rampart_srv_conf_t  *scf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_rampart_module);

    if (ctx == NULL) {
        ctx = rampart_routed_peer(r);
    }

    if (ctx == NULL) {
        scf = ngx_http_conf_upstream_srv_conf(us, ngx_http_rampart_module);
        return scf->original_init_peer(r, us);
    }

    r->upstream->peer.data = ctx;
    r->upstream->peer.get = rampart_get_peer;
    r->upstream->peer.free = rampart_free_peer;
    r->upstream->peer.tries = 1;
#if (NGX_HTTP_SSL)
    r->upstream->peer.set_session = rampart_set_session;
    r->upstream->peer.save_session = rampart_save_session;
#endif

    return NGX_OK;
}


static ngx_int_t
rampart_init_upstream(ngx_conf_t *cf, ngx_http_upstream_srv_conf_t *us)
{
    rampart_srv_conf_t  *scf;

    scf = ngx_http_conf_upstream_srv_conf(us, ngx_http_rampart_module);

    if (scf->original_init_upstream(cf, us) != NGX_OK) {
        return NGX_ERROR;
    }

    scf->original_init_peer = us->peer.init;
    us->peer.init = rampart_init_peer;

    return NGX_OK;
}


/* Configuration */

static char *
rampart_fast_peer(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    rampart_srv_conf_t            *scf = conf;
    ngx_http_upstream_srv_conf_t  *uscf;

    if (scf->original_init_upstream) {
        return "is duplicate";
    }

    uscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_upstream_module);

    scf->original_init_upstream = uscf->peer.init_upstream
                                  ? uscf->peer.init_upstream
                                  : ngx_http_upstream_init_round_robin;

    uscf->peer.init_upstream = rampart_init_upstream;

    return NGX_CONF_OK;
}


/*
 * rampart_lua_vars $name ...: indexes the variables ngx_var.lua reads by slot, in the order given
 * (slot 0 first). A name the config does not declare fails the config's test as any other.
 */
static char *
rampart_lua_vars(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    rampart_main_conf_t  *mcf = conf;

    ngx_str_t                  *value, name;
    ngx_int_t                   index;
    ngx_uint_t                  i;
    rampart_lua_var_t          *var;
    ngx_http_variable_t        *v;
    ngx_http_core_main_conf_t  *cmcf;

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    if (mcf->lua_vars == NULL) {
        mcf->lua_vars = ngx_array_create(cf->pool, cf->args->nelts - 1, sizeof(rampart_lua_var_t));
        if (mcf->lua_vars == NULL) {
            return NGX_CONF_ERROR;
        }
    }

    value = cf->args->elts;

    for (i = 1; i < cf->args->nelts; i++) {
        if (value[i].len < 2 || value[i].data[0] != '$') {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "invalid variable name \"%V\"", &value[i]);
            return NGX_CONF_ERROR;
        }

        name.data = value[i].data + 1;
        name.len = value[i].len - 1;

        index = ngx_http_get_variable_index(cf, &name);
        if (index == NGX_ERROR) {
            return NGX_CONF_ERROR;
        }

        var = ngx_array_push(mcf->lua_vars);
        if (var == NULL) {
            return NGX_CONF_ERROR;
        }

        /* The lowercase name nginx keeps: ngx.var's names are looked up lowercase too. */
        v = cmcf->variables.elts;
        var->name = v[index].name;
        var->index = index;
    }

    return NGX_CONF_OK;
}


static char *
rampart_access_log(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    rampart_loc_conf_t  *lcf = conf;

    return rampart_log_conf(cf, &lcf->log);
}


static char *
rampart_route(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    rampart_loc_conf_t   *lcf = conf;
    rampart_main_conf_t  *mcf;
    ngx_str_t             name = ngx_string("rampart_site_id");
    ngx_str_t             ignore_query = ngx_string("rampart_ignore_query");

    if (lcf->route != NGX_CONF_UNSET) {
        return "is duplicate";
    }

    lcf->route = 1;

    mcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_rampart_module);

    if (mcf->site_id_index == NGX_ERROR) {
        mcf->site_id_index = ngx_http_get_variable_index(cf, &name);
        if (mcf->site_id_index == NGX_ERROR) {
            return NGX_CONF_ERROR;
        }

        mcf->ignore_query_index = ngx_http_get_variable_index(cf, &ignore_query);
        if (mcf->ignore_query_index == NGX_ERROR) {
            return NGX_CONF_ERROR;
        }
    }

    return NGX_CONF_OK;
}


static void *
rampart_create_main_conf(ngx_conf_t *cf)
{
    ngx_pool_cleanup_t   *cln;
    rampart_main_conf_t  *mcf;

    mcf = ngx_pcalloc(cf->pool, sizeof(rampart_main_conf_t));
    if (mcf == NULL) {
        return NULL;
    }

    mcf->site_id_index = NGX_ERROR;
    mcf->ignore_query_index = NGX_ERROR;

    cln = ngx_pool_cleanup_add(cf->pool, 0);
    if (cln == NULL) {
        return NULL;
    }

    cln->handler = rampart_table_cleanup;
    cln->data = mcf;

    /* init_by_lua, which installs the first table, runs while this configuration is read. */
    rampart_install_target = mcf;

    return mcf;
}


static void
rampart_table_cleanup(void *data)
{
    rampart_main_conf_t  *mcf = data;

    rampart_fast_free(mcf->table);
    mcf->table = NULL;

    if (rampart_install_target == mcf) {
        rampart_install_target = NULL;
    }
}


static void *
rampart_create_srv_conf(ngx_conf_t *cf)
{
    return ngx_pcalloc(cf->pool, sizeof(rampart_srv_conf_t));
}


static void *
rampart_create_loc_conf(ngx_conf_t *cf)
{
    rampart_loc_conf_t  *lcf;

    lcf = ngx_palloc(cf->pool, sizeof(rampart_loc_conf_t));
    if (lcf == NULL) {
        return NULL;
    }

    lcf->route = NGX_CONF_UNSET;
    lcf->log = NGX_CONF_UNSET_PTR;

    return lcf;
}


static char *
rampart_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    rampart_loc_conf_t  *prev = parent;
    rampart_loc_conf_t  *conf = child;

    /* Not inherited: only the location that names it routes. */
    if (conf->route == NGX_CONF_UNSET) {
        conf->route = 0;
    }

    ngx_conf_merge_ptr_value(conf->log, prev->log, NULL);

    return NGX_CONF_OK;
}


static ngx_int_t
rampart_preconfiguration(ngx_conf_t *cf)
{
    return rampart_forwarded_add_variable(cf);
}


static ngx_int_t
rampart_postconfiguration(ngx_conf_t *cf)
{
    ngx_http_handler_pt        *h;
    ngx_http_core_main_conf_t  *cmcf;

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_REWRITE_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = rampart_route_handler;

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_LOG_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = rampart_log_handler;

    return NGX_OK;
}


static ngx_int_t
rampart_init_process(ngx_cycle_t *cycle)
{
    /* A worker installs into the configuration it runs (a failed reload may have left the
     * master's pointing at a configuration that was thrown away). */
    rampart_install_target = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_rampart_module);

    return NGX_OK;
}
