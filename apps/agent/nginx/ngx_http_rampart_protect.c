/*
 * The protection of fast-path sites. rampart/protect.lua's `check` runs on every request of a
 * protected site: the ACL, the whitelist, the bans, then the rule group's lines, whose rate filters
 * count the request in a shared dict. On a site under no attack nearly every request passes all of
 * it, and for those the Lua router did nothing else: entering Lua cost more than the checks.
 *
 * rampart/fast_protect.lua writes a site's compiled protection as a program of this module when
 * every part of it is one this file can run the same way (address sets, conditions on the path,
 * query, method, user agent, referer, host, a header, the country or the address with equals, prefix, contains
 * and regexes that only name words, and rate filters); any other site keeps the Lua router. A
 * program runs the checks in protect.lua's order and answers:
 *   - PASS when protect.lua would let the request go on with nothing to carry out (no ACL deny, not
 *     banned, every matching line a rate filter under its limit, or an ACL allow or whitelist entry
 *     that skips them), after counting it exactly as protect.lua would;
 *   - LUA for everything else (a deny, a ban, a challenge, a delay, a limit crossed, a counter that
 *     failed): the counts this request added are taken back first, and the Lua router then decides
 *     the request from the start, reasons, pages and bans included, as it does without this module.
 * So the module never answers a request itself: it only spares the Lua router the requests it
 * would have let through.
 *
 * The counters and the node's bans are lua-nginx-module's shared dicts (rampart_limits,
 * rampart_bans), reached through the functions resty.core calls; fast_protect.lua hands over their
 * addresses with the dicts, so Lua and this module count in the same place.
 */

#include "ngx_http_rampart_protect.h"

#include <string.h>


#define RAMPART_OP_EQUALS       1
#define RAMPART_OP_PREFIX       2
#define RAMPART_OP_CONTAINS     3
#define RAMPART_OP_CONTAINS_CI  4       /* the values are in lower case */
#define RAMPART_OP_CIDR         5

/* lua-nginx-module's value types (Lua's own). */
#define RAMPART_LUA_TNIL        0
#define RAMPART_LUA_TBOOLEAN    1

/* The most rate lines a program counts; fast_protect.lua leaves a longer group to Lua. */
#define RAMPART_MAX_COUNTED     64

/* protect.lua's keys go through resty.core, which refuses a longer one (the line then passes). */
#define RAMPART_MAX_KEY         65535


/* One range of a set: an address of 4 or 16 bytes, masked to its prefix length. */
typedef struct {
    u_char          used;
    u_char          len;
    u_char          bits;
    u_char          key[16];
    double          value;
} rampart_range_t;


/*
 * Address ranges, as rampart/cidr.lua's sets: one hash probe per prefix length the set holds,
 * longest first; a range added again (the same prefix, however written) keeps the last value.
 */
struct rampart_set_s {
    ngx_uint_t          size;           /* slots, a power of 2 */
    ngx_uint_t          used;
    rampart_range_t    *ranges;
    u_char              v4_lengths[33];
    u_char              v6_lengths[129];
    ngx_uint_t          v4_count;
    ngx_uint_t          v6_count;
};


typedef struct {
    ngx_uint_t          field;
    ngx_uint_t          op;
    ngx_uint_t          negate;
    ngx_str_t           name;           /* a variable's name ("http_x_token", "rampart_country") */
    ngx_uint_t          key;            /* its hash */
    rampart_set_t      *set;
    ngx_array_t         values;         /* ngx_str_t */
} rampart_condition_t;


/* An ACL entry (a set, or a condition) or a line of the rule group (its conditions, all of them). */
typedef struct {
    rampart_set_t      *set;
    ngx_uint_t          allow;
    ngx_array_t         conditions;     /* rampart_condition_t */
    ngx_uint_t          rate;           /* a rate filter; any other filter goes to Lua on a match */
    ngx_str_t           prefix;         /* the counter's key up to the address */
    ngx_uint_t          per_url;        /* ... followed by ":" and the path */
    double              requests;
    long                ttl_ms;
} rampart_step_t;


struct rampart_protect_s {
    ngx_pool_t             *pool;       /* the program's own: it outlives the tables holding it */
    ngx_uint_t              refs;       /* fast_protect.lua's, and one a host entry of a table */
    ngx_str_t               ban_key;    /* "b:<site>:", the start of this node's bans' keys */
    rampart_set_t          *whitelist;
    rampart_set_t          *bans;       /* the master's bans of the site, valued by expiry */
    ngx_array_t             acl;        /* rampart_step_t */
    ngx_array_t             lines;      /* rampart_step_t */
    ngx_array_t            *building;   /* where the last step was added */
    ngx_uint_t              broken;     /* a call failed: rampart_protect_done refuses it */
};


/* What one request read, each at most once. */
typedef struct {
    ngx_http_request_t  *r;
    ngx_uint_t           read;          /* a bit per field */
    /* By field; the last two (the codes of a header and of the address in a set) stay unused. */
    ngx_str_t            fields[RAMPART_FIELD_IP + 1];
} rampart_request_t;


/* FFI, as rampart/fast_protect.lua declares it. */
int rampart_protect_shdicts(void *env, void *get, void *incr, void *limits, void *bans);
void *rampart_global_bans_new(void *env, size_t count);
void *rampart_set_new(void *p, size_t count);
int rampart_set_add(void *set, const u_char *addr, size_t len, unsigned bits, double value);
int rampart_protect_global_bans(void *env, void *set);
void *rampart_protect_new(const u_char *sid, size_t sid_len);
void rampart_protect_release(void *p);
int rampart_protect_whitelist(void *p, void *set);
int rampart_protect_bans(void *p, void *set);
int rampart_protect_acl(void *p, void *set, int allow);
int rampart_protect_line(void *p, int rate, const u_char *prefix, size_t prefix_len, int per_url,
    double requests, double ttl_ms);
int rampart_protect_condition(void *p, unsigned field, const u_char *name, size_t name_len,
    unsigned op, int negate, void *set);
int rampart_protect_value(void *p, const u_char *value, size_t len);
int rampart_protect_done(void *p);


/* Sets */

static ngx_uint_t
rampart_range_hash(const u_char *key, size_t len, ngx_uint_t bits)
{
    size_t      i;
    uint32_t    h;

    h = 2166136261u ^ (uint32_t) bits;

    for (i = 0; i < len; i++) {
        h = (h ^ key[i]) * 16777619u;
    }

    return h;
}


static void
rampart_mask(u_char *key, const u_char *addr, size_t len, ngx_uint_t bits)
{
    size_t  whole, i;

    whole = bits / 8;

    for (i = 0; i < len; i++) {
        if (i < whole) {
            key[i] = addr[i];

        } else if (i == whole && bits % 8) {
            key[i] = addr[i] & (u_char) (0xff << (8 - bits % 8));

        } else {
            key[i] = 0;
        }
    }
}


static rampart_range_t *
rampart_set_slot(rampart_set_t *set, const u_char *key, size_t len, ngx_uint_t bits)
{
    ngx_uint_t        i;
    rampart_range_t  *range;

    i = rampart_range_hash(key, len, bits) & (set->size - 1);

    for ( ;; ) {
        range = &set->ranges[i];

        if (!range->used
            || (range->len == len && range->bits == bits && ngx_memcmp(range->key, key, len) == 0))
        {
            return range;
        }

        i = (i + 1) & (set->size - 1);
    }
}


/* The range of `set` holding the address (4 or 16 bytes), longest prefix first; NULL for none. */
static rampart_range_t *
rampart_set_find(rampart_set_t *set, const u_char *addr, size_t len)
{
    u_char            key[16], *lengths;
    uint32_t          v4, masked;
    ngx_uint_t        i, count;
    rampart_range_t  *range;

    if (len == 4) {
        /* The same keys as rampart_mask's, masked as one number. */
        v4 = (uint32_t) addr[0] << 24 | (uint32_t) addr[1] << 16 | (uint32_t) addr[2] << 8 | addr[3];

        for (i = 0; i < set->v4_count; i++) {
            masked = set->v4_lengths[i] ? v4 & (0xffffffffu << (32 - set->v4_lengths[i])) : 0;
            key[0] = (u_char) (masked >> 24);
            key[1] = (u_char) (masked >> 16);
            key[2] = (u_char) (masked >> 8);
            key[3] = (u_char) masked;

            range = rampart_set_slot(set, key, 4, set->v4_lengths[i]);
            if (range->used) {
                return range;
            }
        }

        return NULL;
    }

    if (len != 16) {
        return NULL;
    }

    lengths = set->v6_lengths;
    count = set->v6_count;

    for (i = 0; i < count; i++) {
        rampart_mask(key, addr, len, lengths[i]);
        range = rampart_set_slot(set, key, len, lengths[i]);

        if (range->used) {
            return range;
        }
    }

    return NULL;
}


static rampart_set_t *
rampart_set_create(ngx_pool_t *pool, size_t count)
{
    ngx_uint_t              size;
    rampart_set_t          *set;

    if (pool == NULL || count > (1 << 24)) {
        return NULL;
    }

    size = 8;
    while (size < count * 2) {
        size <<= 1;
    }

    set = ngx_pcalloc(pool, sizeof(rampart_set_t));
    if (set == NULL) {
        return NULL;
    }

    set->ranges = ngx_pcalloc(pool, size * sizeof(rampart_range_t));
    if (set->ranges == NULL) {
        return NULL;
    }

    set->size = size;

    return set;
}


/* A set of room for `count` ranges, in program `p`'s memory. */
void *
rampart_set_new(void *p, size_t count)
{
    rampart_protect_t  *program = p;

    return program ? rampart_set_create(program->pool, count) : NULL;
}


/* The node's bans: a set in the memory of the table `env` belongs to. */
void *
rampart_global_bans_new(void *e, size_t count)
{
    rampart_protect_env_t  *env = e;

    return env ? rampart_set_create(env->pool, count) : NULL;
}


/* Adds the range `addr`/`bits` (the address as cidr.lua parses it: 4 or 16 bytes). -1: refused,
 * or the set is full (it was made for fewer). */
int
rampart_set_add(void *s, const u_char *addr, size_t len, unsigned bits, double value)
{
    u_char            key[16], *lengths;
    ngx_uint_t        i, *count;
    rampart_set_t    *set = s;
    rampart_range_t  *range;

    if (set == NULL || (len != 4 && len != 16) || bits > len * 8) {
        return -1;
    }

    rampart_mask(key, addr, len, bits);
    range = rampart_set_slot(set, key, len, bits);

    if (!range->used) {
        if (set->used * 2 >= set->size) {
            return -1;
        }

        set->used++;
        range->used = 1;
        range->len = (u_char) len;
        range->bits = (u_char) bits;
        ngx_memcpy(range->key, key, len);
    }

    range->value = value;

    /* The prefix lengths, longest first. */
    lengths = len == 4 ? set->v4_lengths : set->v6_lengths;
    count = len == 4 ? &set->v4_count : &set->v6_count;

    for (i = 0; i < *count; i++) {
        if (lengths[i] == bits) {
            return 0;
        }
    }

    for (i = *count; i > 0 && lengths[i - 1] < bits; i--) {
        lengths[i] = lengths[i - 1];
    }

    lengths[i] = (u_char) bits;
    (*count)++;

    return 0;
}


/* Programs */

int
rampart_protect_shdicts(void *e, void *get, void *incr, void *limits, void *bans)
{
    rampart_protect_env_t  *env = e;

    if (env == NULL || get == NULL || incr == NULL || limits == NULL || bans == NULL) {
        return -1;
    }

    env->get = (rampart_shdict_get_pt) get;
    env->incr = (rampart_shdict_incr_pt) incr;
    env->limits = limits;
    env->bans = bans;

    return 0;
}


int
rampart_protect_global_bans(void *e, void *set)
{
    rampart_protect_env_t  *env = e;

    if (env == NULL) {
        return -1;
    }

    env->global_bans = set;

    return 0;
}


/*
 * A program for site `sid`, held once by the caller (fast_protect.lua, until its site's compiled
 * protection goes): a table that serves it holds it too, so that a swap that keeps the site reuses
 * it. Its memory is its own.
 */
void *
rampart_protect_new(const u_char *sid, size_t sid_len)
{
    u_char             *p;
    ngx_pool_t         *pool;
    rampart_protect_t  *program;

    if (sid_len == 0 || sid_len > 20) {
        return NULL;
    }

    pool = ngx_create_pool(1024, ngx_cycle->log);
    if (pool == NULL) {
        return NULL;
    }

    program = ngx_pcalloc(pool, sizeof(rampart_protect_t));
    if (program == NULL) {
        ngx_destroy_pool(pool);
        return NULL;
    }

    program->pool = pool;
    program->refs = 1;

    p = ngx_pnalloc(pool, sid_len + 3);
    if (p == NULL) {
        ngx_destroy_pool(pool);
        return NULL;
    }

    program->ban_key.data = p;
    program->ban_key.len = sid_len + 3;
    p = ngx_cpymem(p, "b:", 2);
    p = ngx_cpymem(p, sid, sid_len);
    *p = ':';

    if (ngx_array_init(&program->acl, pool, 4, sizeof(rampart_step_t)) != NGX_OK
        || ngx_array_init(&program->lines, pool, 4, sizeof(rampart_step_t)) != NGX_OK)
    {
        ngx_destroy_pool(pool);
        return NULL;
    }

    return program;
}


/* One holder fewer; the last frees it. */
void
rampart_protect_release(void *p)
{
    rampart_protect_t  *program = p;

    if (program && --program->refs == 0) {
        ngx_destroy_pool(program->pool);
    }
}


/* One holder more (a table's host entry). */
void
rampart_protect_hold(rampart_protect_t *program)
{
    program->refs++;
}


int
rampart_protect_whitelist(void *p, void *set)
{
    rampart_protect_t  *program = p;

    if (program == NULL || set == NULL) {
        return -1;
    }

    program->whitelist = set;

    return 0;
}


int
rampart_protect_bans(void *p, void *set)
{
    rampart_protect_t  *program = p;

    if (program == NULL || set == NULL) {
        return -1;
    }

    program->bans = set;

    return 0;
}


static rampart_step_t *
rampart_protect_step(rampart_protect_t *program, ngx_array_t *steps)
{
    rampart_step_t  *step;

    step = ngx_array_push(steps);
    if (step == NULL) {
        program->broken = 1;
        return NULL;
    }

    ngx_memzero(step, sizeof(rampart_step_t));

    if (ngx_array_init(&step->conditions, program->pool, 2, sizeof(rampart_condition_t))
        != NGX_OK)
    {
        program->broken = 1;
        return NULL;
    }

    program->building = steps;

    return step;
}


/* The next ACL entry: the address set `set`, or (set NULL) the condition added next. */
int
rampart_protect_acl(void *p, void *set, int allow)
{
    rampart_step_t     *step;
    rampart_protect_t  *program = p;

    if (program == NULL || program->lines.nelts) {
        return -1;
    }

    step = rampart_protect_step(program, &program->acl);
    if (step == NULL) {
        return -1;
    }

    step->set = set;
    step->allow = allow ? 1 : 0;

    return 0;
}


/* The next line of the rule group; its conditions are added next. */
int
rampart_protect_line(void *p, int rate, const u_char *prefix, size_t prefix_len, int per_url,
    double requests, double ttl_ms)
{
    rampart_step_t     *step;
    rampart_protect_t  *program = p;

    if (program == NULL || program->lines.nelts >= RAMPART_MAX_COUNTED) {
        return -1;
    }

    step = rampart_protect_step(program, &program->lines);
    if (step == NULL) {
        return -1;
    }

    if (!rate) {
        return 0;
    }

    step->rate = 1;
    step->per_url = per_url ? 1 : 0;
    step->requests = requests;
    step->ttl_ms = (long) ttl_ms;

    step->prefix.data = ngx_pnalloc(program->pool, prefix_len);
    if (step->prefix.data == NULL) {
        program->broken = 1;
        return -1;
    }

    ngx_memcpy(step->prefix.data, prefix, prefix_len);
    step->prefix.len = prefix_len;

    return 0;
}


static rampart_condition_t *
rampart_protect_last_condition(rampart_protect_t *program)
{
    rampart_step_t  *step;

    if (program->building == NULL || program->building->nelts == 0) {
        return NULL;
    }

    step = program->building->elts;
    step += program->building->nelts - 1;

    if (step->conditions.nelts == 0) {
        return NULL;
    }

    return (rampart_condition_t *) step->conditions.elts + step->conditions.nelts - 1;
}


/* A condition of the last entry or line: on a field and its values (added next), or on the
 * address (`set`); `name` is a header's variable name. */
int
rampart_protect_condition(void *p, unsigned field, const u_char *name, size_t name_len,
    unsigned op, int negate, void *set)
{
    rampart_step_t       *step;
    rampart_protect_t    *program = p;
    rampart_condition_t  *c;

    if (program == NULL || program->building == NULL || program->building->nelts == 0
        || op < RAMPART_OP_EQUALS || op > RAMPART_OP_CIDR
        || (field == RAMPART_FIELD_IP) != (op == RAMPART_OP_CIDR)
        || (field == RAMPART_FIELD_IP && set == NULL)
        || (field == RAMPART_FIELD_VARIABLE && (name_len == 0 || name_len > 80))
        || field == RAMPART_FIELD_ADDR || field == RAMPART_FIELD_BIN_ADDR
        || field > RAMPART_FIELD_IP)
    {
        if (program) {
            program->broken = 1;
        }
        return -1;
    }

    step = program->building->elts;
    step += program->building->nelts - 1;

    if (step->set) {
        program->broken = 1;
        return -1;
    }

    c = ngx_array_push(&step->conditions);
    if (c == NULL) {
        program->broken = 1;
        return -1;
    }

    ngx_memzero(c, sizeof(rampart_condition_t));
    c->field = field;
    c->op = op;
    c->negate = negate ? 1 : 0;
    c->set = set;

    if (field == RAMPART_FIELD_VARIABLE) {
        c->name.data = ngx_pnalloc(program->pool, name_len);
        if (c->name.data == NULL) {
            program->broken = 1;
            return -1;
        }

        ngx_memcpy(c->name.data, name, name_len);
        c->name.len = name_len;
        c->key = ngx_hash_key(c->name.data, c->name.len);
    }

    if (ngx_array_init(&c->values, program->pool, 2, sizeof(ngx_str_t)) != NGX_OK) {
        program->broken = 1;
        return -1;
    }

    return 0;
}


int
rampart_protect_value(void *p, const u_char *value, size_t len)
{
    ngx_str_t            *v;
    rampart_protect_t    *program = p;
    rampart_condition_t  *c;

    if (program == NULL) {
        return -1;
    }

    c = rampart_protect_last_condition(program);

    if (c == NULL || c->op == RAMPART_OP_CIDR || len == 0) {
        program->broken = 1;
        return -1;
    }

    v = ngx_array_push(&c->values);
    if (v == NULL) {
        program->broken = 1;
        return -1;
    }

    v->data = ngx_pnalloc(program->pool, len);
    if (v->data == NULL) {
        program->broken = 1;
        return -1;
    }

    ngx_memcpy(v->data, value, len);
    v->len = len;

    return 0;
}


/* 0 when every call that built the program succeeded and each entry and line can run. */
int
rampart_protect_done(void *p)
{
    ngx_uint_t            i, j, k;
    ngx_array_t          *lists[2];
    rampart_step_t       *step;
    rampart_protect_t    *program = p;
    rampart_condition_t  *c;

    if (program == NULL || program->broken) {
        return -1;
    }

    lists[0] = &program->acl;
    lists[1] = &program->lines;

    for (k = 0; k < 2; k++) {
        step = lists[k]->elts;

        for (i = 0; i < lists[k]->nelts; i++) {
            if (step[i].set == NULL && step[i].conditions.nelts == 0) {
                return -1;
            }

            c = step[i].conditions.elts;

            for (j = 0; j < step[i].conditions.nelts; j++) {
                if (c[j].op != RAMPART_OP_CIDR && c[j].values.nelts == 0) {
                    return -1;
                }
            }
        }
    }

    return 0;
}


/* Requests */

/* The variable `name` (hash `key`) as ngx.var reads it by name, computed afresh; "" when it has no
 * value, as protect.lua reads a missing one. */
static void
rampart_variable(ngx_http_request_t *r, ngx_str_t *name, ngx_uint_t key, ngx_str_t *text)
{
    ngx_http_variable_value_t  *vv;

    vv = ngx_http_get_variable(r, name, key);

    if (vv == NULL || vv->not_found) {
        text->len = 0;
        text->data = (u_char *) "";

    } else {
        text->len = vv->len;
        text->data = vv->data;
    }
}


/*
 * What the variable of `field` holds, read once a request where its get handler reads it (the
 * handlers of nginx's http/ngx_http_variables.c): the route handler runs for the main request with
 * a Host, so $host is the Host header and $request_method the request's own. A header nginx may
 * hold as several lines (1.23 on) is read through its variable, which joins them.
 */
static ngx_str_t *
rampart_field(rampart_request_t *req, ngx_uint_t field)
{
    ngx_str_t            *text;
    ngx_table_elt_t      *h;
    ngx_http_request_t   *r;

    static ngx_str_t  none = ngx_string("");
#if (nginx_version >= 1023000)
    ngx_str_t        *name;

    static ngx_str_t  joined[2] = { ngx_string("http_user_agent"), ngx_string("http_referer") };
#endif

    if (field >= RAMPART_FIELDS) {
        /* Not a field read here (rampart_condition_holds reads variables and sets itself). */
        return &none;
    }

    text = &req->fields[field];

    if (req->read & (1 << field)) {
        return text;
    }

    req->read |= 1 << field;
    r = req->r;

    switch (field) {

    case RAMPART_FIELD_PATH:
        *text = r->uri;
        break;

    case RAMPART_FIELD_QUERY:
        *text = r->args;
        break;

    case RAMPART_FIELD_METHOD:
        *text = r->method_name;
        break;

    case RAMPART_FIELD_HOST:
        *text = r->headers_in.server;
        break;

    case RAMPART_FIELD_ADDR:
        *text = r->connection->addr_text;
        break;

    case RAMPART_FIELD_BIN_ADDR:
        /* $binary_remote_addr's bytes; any other family has no address a set can hold. */
        switch (r->connection->sockaddr->sa_family) {

        case AF_INET:
            text->data = (u_char *) &((struct sockaddr_in *) r->connection->sockaddr)->sin_addr;
            text->len = 4;
            break;

#if (NGX_HAVE_INET6)
        case AF_INET6:
            text->data = ((struct sockaddr_in6 *) r->connection->sockaddr)->sin6_addr.s6_addr;
            text->len = 16;
            break;
#endif

        default:
            text->data = NULL;
            text->len = 0;
        }

        break;

    default: /* RAMPART_FIELD_USER_AGENT, RAMPART_FIELD_REFERER */
        h = field == RAMPART_FIELD_USER_AGENT ? r->headers_in.user_agent : r->headers_in.referer;

#if (nginx_version >= 1023000)
        if (h && h->next) {
            name = &joined[field == RAMPART_FIELD_REFERER];
            rampart_variable(r, name, ngx_hash_key(name->data, name->len), text);
            return text;
        }
#endif

        text->len = h ? h->value.len : 0;
        text->data = h ? h->value.data : NULL;
    }

    if (text->data == NULL) {
        /* protect.lua reads a missing value as "" ($args, the headers). */
        text->data = (u_char *) "";
        text->len = 0;
    }

    return text;
}


static rampart_range_t *
rampart_request_in(rampart_request_t *req, rampart_set_t *set)
{
    ngx_str_t  *addr;

    addr = rampart_field(req, RAMPART_FIELD_BIN_ADDR);

    return rampart_set_find(set, addr->data, addr->len);
}


/* Whether `word` is in `text`: the first byte found by memchr, then the rest compared (for short
 * words in short texts, cheaper than memmem's set-up). */
static ngx_uint_t
rampart_contains(ngx_str_t *text, ngx_str_t *word)
{
    u_char  *p, *last;

    if (text->len < word->len) {
        return 0;
    }

    p = text->data;
    last = text->data + text->len - word->len + 1;

    while (p < last) {
        p = memchr(p, word->data[0], last - p);
        if (p == NULL) {
            return 0;
        }

        if (ngx_memcmp(p + 1, word->data + 1, word->len - 1) == 0) {
            return 1;
        }

        p++;
    }

    return 0;
}


static ngx_uint_t
rampart_condition_holds(rampart_request_t *req, rampart_condition_t *c)
{
    u_char       low[512];
    ngx_str_t   *text, variable, lowered, *v;
    ngx_uint_t   i, op, hit;

    hit = 0;

    if (c->op == RAMPART_OP_CIDR) {
        hit = rampart_request_in(req, c->set) != NULL;
        return hit ^ c->negate;
    }

    if (c->field == RAMPART_FIELD_VARIABLE) {
        /* "http_<name>" or "rampart_country", read each time as ngx.var reads them. */
        rampart_variable(req->r, &c->name, c->key, &variable);
        text = &variable;

    } else {
        text = rampart_field(req, c->field);
    }

    op = c->op;

    if (op == RAMPART_OP_CONTAINS_CI && text->len <= sizeof(low)) {
        /* As conditions.lua: the text in lower case once (ASCII, as Lua's string.lower), then a
         * plain find of each word (given in lower case). A longer text is searched folding case
         * as it goes (ngx_strlcasestrn folds ASCII the same way). */
        ngx_strlow(low, text->data, text->len);
        lowered.len = text->len;
        lowered.data = low;
        text = &lowered;
        op = RAMPART_OP_CONTAINS;
    }

    v = c->values.elts;

    for (i = 0; i < c->values.nelts && !hit; i++) {
        switch (op) {

        case RAMPART_OP_EQUALS:
            hit = text->len == v[i].len && ngx_memcmp(text->data, v[i].data, v[i].len) == 0;
            break;

        case RAMPART_OP_PREFIX:
            hit = text->len >= v[i].len && ngx_memcmp(text->data, v[i].data, v[i].len) == 0;
            break;

        case RAMPART_OP_CONTAINS:
            hit = rampart_contains(text, &v[i]);
            break;

        default: /* RAMPART_OP_CONTAINS_CI, past the buffer */
            hit = text->len >= v[i].len
                  && ngx_strlcasestrn(text->data, text->data + text->len, v[i].data,
                                      v[i].len - 1) != NULL;
            break;
        }
    }

    return hit ^ c->negate;
}


static ngx_uint_t
rampart_step_holds(rampart_request_t *req, rampart_step_t *step)
{
    ngx_uint_t            i;
    rampart_condition_t  *c;

    if (step->set) {
        return rampart_request_in(req, step->set) != NULL;
    }

    c = step->conditions.elts;

    for (i = 0; i < step->conditions.nelts; i++) {
        if (!rampart_condition_holds(req, &c[i])) {
            return 0;
        }
    }

    return 1;
}


/* protect.lua's banned_by: the longest range holding the address, while its ban lasts. */
static ngx_uint_t
rampart_banned_by(rampart_request_t *req, rampart_set_t *set)
{
    rampart_range_t  *range;

    if (set == NULL) {
        return 0;
    }

    range = rampart_request_in(req, set);

    return range != NULL && range->value > (double) ngx_time();
}


/* `b:<site>:<address>` in rampart_bans, truthy as Lua reads it (anything but nil and false). */
static ngx_uint_t
rampart_node_banned(rampart_request_t *req, rampart_protect_env_t *env, rampart_protect_t *program)
{
    int                     rc, type, flags, stale;
    char                   *err;
    u_char                  key[80], value[64], *buf;
    size_t                  len;
    double                  number;
    ngx_str_t              *addr;

    addr = rampart_field(req, RAMPART_FIELD_ADDR);

    if (program->ban_key.len + addr->len > sizeof(key)) {
        /* No address is that long: let Lua read it. */
        return 1;
    }

    ngx_memcpy(ngx_cpymem(key, program->ban_key.data, program->ban_key.len), addr->data, addr->len);

    buf = value;
    len = sizeof(value);
    type = RAMPART_LUA_TNIL;
    err = NULL;

    rc = env->get(env->bans, key, program->ban_key.len + addr->len, &type, &buf, &len, &number,
                  &flags, 0, &stale, &err);

    if (buf != value) {
        /* A string longer than the buffer: lua-nginx-module allocated it. */
        free(buf);
    }

    if (rc != NGX_OK) {
        return 1;
    }

    return type != RAMPART_LUA_TNIL && !(type == RAMPART_LUA_TBOOLEAN && value[0] == 0);
}


/* `<prefix><address>[:<path>]`, in `buf` when it fits, else in the request's pool. */
static u_char *
rampart_rate_key(rampart_request_t *req, rampart_step_t *line, u_char *buf, size_t size,
    size_t *len)
{
    u_char     *key, *p;
    ngx_str_t  *addr, *path;

    addr = rampart_field(req, RAMPART_FIELD_ADDR);
    path = line->per_url ? rampart_field(req, RAMPART_FIELD_PATH) : NULL;

    *len = line->prefix.len + addr->len + (path ? 1 + path->len : 0);

    key = *len <= size ? buf : ngx_pnalloc(req->r->pool, *len);
    if (key == NULL) {
        return NULL;
    }

    p = ngx_cpymem(key, line->prefix.data, line->prefix.len);
    p = ngx_cpymem(p, addr->data, addr->len);

    if (path) {
        *p++ = ':';
        ngx_memcpy(p, path->data, path->len);
    }

    return key;
}


/* Adds `by` to a line's counter; the count after it, or -1 when there is none. */
static double
rampart_count(rampart_request_t *req, rampart_protect_env_t *env, rampart_step_t *line, double by)
{
    int      forcible;
    char    *err;
    u_char   buf[256], *key;
    size_t   len;
    double   value;

    key = rampart_rate_key(req, line, buf, sizeof(buf), &len);
    if (key == NULL) {
        return -1;
    }

    if (len > RAMPART_MAX_KEY) {
        /* resty.core refuses it and protect.lua's line passes: so does this one. */
        return 0;
    }

    value = by;
    err = NULL;

    /* As protect.lua's limits:incr(key, 1, 0, seconds); taking back adds -1 to what exists. */
    if (env->incr(env->limits, key, len, &value, &err, by > 0, 0, line->ttl_ms, &forcible)
        != NGX_OK)
    {
        return -1;
    }

    return value;
}


/* Takes back the counts of `lines` (those this request added) before Lua counts it again. */
static void
rampart_uncount(rampart_request_t *req, rampart_protect_env_t *env, rampart_step_t **lines,
    ngx_uint_t n)
{
    ngx_uint_t  i;

    for (i = 0; i < n; i++) {
        (void) rampart_count(req, env, lines[i], -1);
    }
}


/*
 * protect.lua's `check` for a request of a site with program `p`: PASS when it answers nil or
 * ALLOW (the request counted as it counts it), LUA otherwise (with nothing counted).
 */
ngx_int_t
rampart_protect_run(ngx_http_request_t *r, rampart_protect_t *p, rampart_protect_env_t *env)
{
    double                  count;
    ngx_uint_t              i, n;
    rampart_step_t         *step, *counted[RAMPART_MAX_COUNTED];
    rampart_request_t       req;

    if (env->get == NULL) {
        /* The table's dicts were never handed over: fast.lua gives such a table no program. */
        return RAMPART_PROTECT_LUA;
    }

    req.r = r;
    req.read = 0;

    /* The ACL: the first entry that holds decides; allow skips everything after it. */
    step = p->acl.elts;

    for (i = 0; i < p->acl.nelts; i++) {
        if (rampart_step_holds(&req, &step[i])) {
            return step[i].allow ? RAMPART_PROTECT_PASS : RAMPART_PROTECT_LUA;
        }
    }

    if (p->whitelist && rampart_request_in(&req, p->whitelist)) {
        return RAMPART_PROTECT_PASS;
    }

    if (rampart_banned_by(&req, env->global_bans) || rampart_banned_by(&req, p->bans)
        || rampart_node_banned(&req, env, p))
    {
        return RAMPART_PROTECT_LUA;
    }

    /* The lines, top to bottom: a match on anything but a rate under its limit goes to Lua. */
    step = p->lines.elts;
    n = 0;

    for (i = 0; i < p->lines.nelts; i++) {
        if (!rampart_step_holds(&req, &step[i])) {
            continue;
        }

        if (!step[i].rate) {
            rampart_uncount(&req, env, counted, n);
            return RAMPART_PROTECT_LUA;
        }

        count = rampart_count(&req, env, &step[i], 1);

        if (count < 0) {
            rampart_uncount(&req, env, counted, n);
            return RAMPART_PROTECT_LUA;
        }

        counted[n++] = &step[i];

        if (count > step[i].requests) {
            rampart_uncount(&req, env, counted, n);
            return RAMPART_PROTECT_LUA;
        }
    }

    return RAMPART_PROTECT_PASS;
}
