/*
 * The edge's access log: one JSON object a request, byte for byte the line nginx's log module
 * writes with the agent's `log_format rampart_access escape=json` (render/nginx-conf.ts's
 * accessLogFormat), written without the log module's machinery.
 *
 * The log module cost 5,234 instructions of a proxied request of 27,343 (bench/
 * edge-proxy-instructions.ts), against about 2,400 for plain nginx's shorter combined line: it reads
 * each variable twice (once for the line's length, once to copy it), runs one function a piece of
 * the format (literal text included), and prints every number with ngx_sprintf. Here each variable
 * is read once, its JSON escapes looked for eight bytes at a time, numbers written two digits at a
 * time (the seconds of the time once a second), and $upstream_response_time written in place by
 * its own rules instead of read as a variable (which allocates it and prints it with ngx_sprintf).
 *
 *     rampart_access_log <path> [buffer=<size> [flush=<time>]] [country] [waf];
 *     rampart_access_log off;
 *
 * The fields, in accessLogFormat's order: time ($msec), site_id, client_ip, method, host, uri,
 * status, bytes_sent, bytes_received ($request_length), request_time, upstream_time, cache_status,
 * user_agent, referer, country (with `country`), block_reason, waf_tx (with `waf`). A variable is
 * read as the log module reads it (ngx_http_get_flushed_variable: a variable nginx does not cache
 * is computed again), a missing one is empty, and text is escaped by ngx_escape_json, as
 * `escape=json` does; numbers are written as the log module's own ops write them.
 *
 * The buffer behaves as access_log's: it belongs to the file (nginx flushes it before it reopens
 * its logs and when a worker exits), a line that does not fit flushes it first, a line longer than
 * the buffer is written on its own, and a timer flushes it `flush` after its first line.
 */

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ngx_http_rampart_log.h"


#define RAMPART_LOG_VARIABLE        0
#define RAMPART_LOG_MSEC            1
#define RAMPART_LOG_STATUS          2
#define RAMPART_LOG_BYTES_SENT      3
#define RAMPART_LOG_REQUEST_LENGTH  4
#define RAMPART_LOG_REQUEST_TIME    5
#define RAMPART_LOG_UPSTREAM_TIME   6

/* The optional fields, by the directive's words. */
#define RAMPART_LOG_COUNTRY         0x01
#define RAMPART_LOG_WAF             0x02

#define RAMPART_LOG_FIELDS          17


/* One field of the line: the JSON before its value, and what the value is. */
typedef struct {
    ngx_str_t       prefix;
    ngx_uint_t      kind;
    ngx_str_t       variable;       /* RAMPART_LOG_VARIABLE: its name */
    ngx_uint_t      option;         /* 0, or the word that adds the field */
} rampart_log_spec_t;


typedef struct {
    ngx_str_t       prefix;
    ngx_uint_t      kind;
    ngx_int_t       index;          /* RAMPART_LOG_VARIABLE: the variable's */
} rampart_log_field_t;


typedef struct {
    u_char         *start;
    u_char         *pos;
    u_char         *last;
    ngx_event_t    *event;
    ngx_msec_t      flush;
} rampart_log_buf_t;


struct rampart_log_s {
    ngx_open_file_t      *file;
    rampart_log_field_t   fields[RAMPART_LOG_FIELDS];
    ngx_uint_t            nfields;
    size_t                fixed;    /* the prefixes, the longest numbers, the end, the line feed */
    time_t                disk_full_time;
    time_t                error_log_time;
};


static rampart_log_spec_t  rampart_log_specs[] = {
    { ngx_string("{\"time\":"), RAMPART_LOG_MSEC, ngx_null_string, 0 },
    { ngx_string(",\"site_id\":\""), RAMPART_LOG_VARIABLE, ngx_string("rampart_site_id"), 0 },
    { ngx_string("\",\"client_ip\":\""), RAMPART_LOG_VARIABLE, ngx_string("remote_addr"), 0 },
    { ngx_string("\",\"method\":\""), RAMPART_LOG_VARIABLE, ngx_string("request_method"), 0 },
    { ngx_string("\",\"host\":\""), RAMPART_LOG_VARIABLE, ngx_string("host"), 0 },
    { ngx_string("\",\"uri\":\""), RAMPART_LOG_VARIABLE, ngx_string("request_uri"), 0 },
    { ngx_string("\",\"status\":"), RAMPART_LOG_STATUS, ngx_null_string, 0 },
    { ngx_string(",\"bytes_sent\":"), RAMPART_LOG_BYTES_SENT, ngx_null_string, 0 },
    { ngx_string(",\"bytes_received\":"), RAMPART_LOG_REQUEST_LENGTH, ngx_null_string, 0 },
    { ngx_string(",\"request_time\":"), RAMPART_LOG_REQUEST_TIME, ngx_null_string, 0 },
    { ngx_string(",\"upstream_time\":\""), RAMPART_LOG_UPSTREAM_TIME, ngx_null_string, 0 },
    { ngx_string("\",\"cache_status\":\""), RAMPART_LOG_VARIABLE,
      ngx_string("upstream_cache_status"), 0 },
    { ngx_string("\",\"user_agent\":\""), RAMPART_LOG_VARIABLE, ngx_string("http_user_agent"), 0 },
    { ngx_string("\",\"referer\":\""), RAMPART_LOG_VARIABLE, ngx_string("http_referer"), 0 },
    { ngx_string("\",\"country\":\""), RAMPART_LOG_VARIABLE, ngx_string("rampart_country"),
      RAMPART_LOG_COUNTRY },
    { ngx_string("\",\"block_reason\":\""), RAMPART_LOG_VARIABLE,
      ngx_string("rampart_block_reason"), 0 },
    { ngx_string("\",\"waf_tx\":\""), RAMPART_LOG_VARIABLE, ngx_string("rampart_waf_tx"),
      RAMPART_LOG_WAF },
};

static ngx_str_t  rampart_log_end = ngx_string("\"}");


/*
 * The bytes ngx_escape_json adds for each character: one for '"', '\\' and the control characters
 * it writes as \n, \r, \t, \b, \f; five for the other control characters (\u00XX).
 */
static u_char  rampart_json_extra[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 1, 1, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    /* the rest: 0 */
};


static void rampart_log_file_write(ngx_http_request_t *r, rampart_log_t *log, u_char *buf,
    size_t len);
static void rampart_log_flush(ngx_open_file_t *file, ngx_log_t *log);
static void rampart_log_flush_handler(ngx_event_t *ev);


/* Bytes of 8 characters at once, for the scan of text for characters JSON escapes. */
#define RAMPART_ONES   0x0101010101010101ULL
#define RAMPART_HIGHS  0x8080808080808080ULL


/*
 * Non-zero when one of the 8 bytes of `x` is a control character, '"' or '\\' (the bytes
 * rampart_json_extra counts): each term is the classic test for a byte below a bound (`x - n`
 * borrows into a byte's high bit only where the byte was below n, and `& ~x` drops the bytes that
 * had that bit already), the quote and the backslash as a zero byte of `x` xor'ed with them. Which
 * bytes matched is not exact, whether one did is.
 */
static ngx_inline uint64_t
rampart_json_special(uint64_t x)
{
    uint64_t  quote, backslash;

    quote = x ^ (RAMPART_ONES * '"');
    backslash = x ^ (RAMPART_ONES * '\\');

    return (((x - RAMPART_ONES * 0x20) & ~x)
            | ((quote - RAMPART_ONES) & ~quote)
            | ((backslash - RAMPART_ONES) & ~backslash))
           & RAMPART_HIGHS;
}


/* The bytes ngx_escape_json adds to `len` bytes at `p`: eight at a time until one escapes. */
static size_t
rampart_log_extra(u_char *p, size_t len)
{
    size_t     n;
    u_char    *last;
    uint64_t   word;

    last = p + len;

    for ( /* void */ ; last - p >= 8; p += 8) {
        ngx_memcpy(&word, p, sizeof(word));

        if (rampart_json_special(word)) {
            break;
        }
    }

    n = 0;

    for ( /* void */ ; p < last; p++) {
        n += rampart_json_extra[*p];
    }

    return n;
}


/* "00" to "99": two digits a division. */
static const u_char  rampart_digit_pairs[] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";


/* `u` in decimal, as ngx_sprintf's "%O", "%T" and "%ui" write it. */
static u_char *
rampart_log_uint(u_char *p, uint64_t u)
{
    u_char    *end;
    uint64_t   v;
    ngx_uint_t pair;

    end = p + 1;

    for (v = u; v >= 10; v /= 10) {
        end++;
    }

    p = end;

    while (u >= 100) {
        pair = (ngx_uint_t) (u % 100) * 2;
        u /= 100;
        *--p = rampart_digit_pairs[pair + 1];
        *--p = rampart_digit_pairs[pair];
    }

    if (u >= 10) {
        *--p = rampart_digit_pairs[u * 2 + 1];
        *--p = rampart_digit_pairs[u * 2];

    } else {
        *--p = (u_char) ('0' + u);
    }

    return end;
}


/* `n` in decimal, a sign first when negative ("%O"). */
static u_char *
rampart_log_int(u_char *p, int64_t n)
{
    if (n < 0) {
        *p++ = '-';
        return rampart_log_uint(p, (uint64_t) 0 - (uint64_t) n);
    }

    return rampart_log_uint(p, (uint64_t) n);
}


/* 0 to 999 in three digits ("%03M", "%03ui"). */
static ngx_inline u_char *
rampart_log_three(u_char *p, ngx_uint_t n)
{
    ngx_uint_t  pair;

    pair = (n % 100) * 2;
    *p++ = (u_char) ('0' + n / 100);
    *p++ = rampart_digit_pairs[pair];
    *p++ = rampart_digit_pairs[pair + 1];

    return p;
}


/* Milliseconds as "%T.%03M" writes them: seconds, a dot, three digits. */
static u_char *
rampart_log_msec(u_char *p, ngx_msec_int_t ms)
{
    p = rampart_log_uint(p, (uint64_t) (ms / 1000));
    *p++ = '.';

    return rampart_log_three(p, (ngx_uint_t) (ms % 1000));
}


/*
 * $msec: the seconds of nginx's cached time change once a second, so their digits are kept (one
 * copy a worker) and only the milliseconds are written each time.
 */
static u_char *
rampart_log_time(u_char *p, ngx_time_t *tp)
{
    static time_t  sec = -1;
    static size_t  len;
    static u_char  text[NGX_TIME_T_LEN];

    if (tp->sec < 0) {
        /* Never, short of a broken clock: written as it is, not kept (-1 marks nothing kept). */
        *p++ = '-';
        p = rampart_log_uint(p, (uint64_t) 0 - (uint64_t) tp->sec);
        *p++ = '.';

        return rampart_log_three(p, tp->msec);
    }

    if (tp->sec != sec) {
        len = rampart_log_uint(text, (uint64_t) tp->sec) - text;
        sec = tp->sec;
    }

    p = ngx_cpymem(p, text, len);
    *p++ = '.';

    return rampart_log_three(p, tp->msec);
}


/*
 * $upstream_response_time (ngx_http_upstream_response_time_variable, as its own code): each
 * attempt's time, "-" when it has none, ", " between the peers of one upstream, " : " where the
 * request went on to another. Written in place: the variable allocates its text and prints each
 * time with ngx_sprintf, which cost a sixth of the line.
 */
static size_t
rampart_log_upstream_len(ngx_http_request_t *r)
{
    if (r->upstream_states == NULL) {
        return 0;
    }

    return r->upstream_states->nelts * (NGX_TIME_T_LEN + 4 + 2);
}


static u_char *
rampart_log_upstream_time(ngx_http_request_t *r, u_char *p)
{
    ngx_uint_t                  i, n;
    ngx_msec_int_t              ms;
    ngx_http_upstream_state_t  *state;

    if (r->upstream_states == NULL || r->upstream_states->nelts == 0) {
        return p;
    }

    n = r->upstream_states->nelts;
    state = r->upstream_states->elts;
    i = 0;

    for ( ;; ) {
        ms = state[i].response_time;

        if (ms != -1) {
            p = rampart_log_msec(p, ngx_max(ms, 0));

        } else {
            *p++ = '-';
        }

        if (++i == n) {
            break;
        }

        if (state[i].peer) {
            *p++ = ',';
            *p++ = ' ';

        } else {
            *p++ = ' ';
            *p++ = ':';
            *p++ = ' ';

            if (++i == n) {
                break;
            }
        }
    }

    return p;
}


static u_char *
rampart_log_line(ngx_http_request_t *r, rampart_log_t *log, u_char *p,
    ngx_http_variable_value_t **values, size_t *extra)
{
    ngx_uint_t                  i, status;
    ngx_time_t                 *tp;
    ngx_msec_int_t              ms;
    rampart_log_field_t        *field;
    ngx_http_variable_value_t  *value;

    tp = ngx_timeofday();

    for (i = 0; i < log->nfields; i++) {
        field = &log->fields[i];
        p = ngx_cpymem(p, field->prefix.data, field->prefix.len);

        switch (field->kind) {

        case RAMPART_LOG_VARIABLE:
            value = values[i];

            if (value == NULL) {
                break;
            }

            if (extra[i] == 0) {
                p = ngx_cpymem(p, value->data, value->len);

            } else {
                p = (u_char *) ngx_escape_json(p, value->data, value->len);
            }

            break;

        case RAMPART_LOG_MSEC:
            p = rampart_log_time(p, tp);
            break;

        case RAMPART_LOG_STATUS:
            if (r->err_status) {
                status = r->err_status;

            } else if (r->headers_out.status) {
                status = r->headers_out.status;

            } else if (r->http_version == NGX_HTTP_VERSION_9) {
                status = 9;

            } else {
                status = 0;
            }

            p = status < 1000 ? rampart_log_three(p, status) : rampart_log_uint(p, status);
            break;

        case RAMPART_LOG_BYTES_SENT:
            p = rampart_log_int(p, r->connection->sent);
            break;

        case RAMPART_LOG_REQUEST_LENGTH:
            p = rampart_log_int(p, r->request_length);
            break;

        case RAMPART_LOG_UPSTREAM_TIME:
            p = rampart_log_upstream_time(r, p);
            break;

        default: /* RAMPART_LOG_REQUEST_TIME */
            ms = (ngx_msec_int_t)
                     ((tp->sec - r->start_sec) * 1000 + (tp->msec - r->start_msec));
            p = rampart_log_msec(p, ngx_max(ms, 0));
        }
    }

    p = ngx_cpymem(p, rampart_log_end.data, rampart_log_end.len);
    ngx_linefeed(p);

    return p;
}


void
rampart_log_write(ngx_http_request_t *r, rampart_log_t *log)
{
    u_char                     *line, *p;
    size_t                      len, extra[RAMPART_LOG_FIELDS];
    ngx_uint_t                  i;
    rampart_log_buf_t          *buffer;
    ngx_http_variable_value_t  *value, *values[RAMPART_LOG_FIELDS];

    if (ngx_time() == log->disk_full_time) {
        /* As the log module: writing to a full disk may block the worker; skip for a second. */
        return;
    }

    len = log->fixed + rampart_log_upstream_len(r);

    for (i = 0; i < log->nfields; i++) {
        if (log->fields[i].kind != RAMPART_LOG_VARIABLE) {
            continue;
        }

        value = ngx_http_get_flushed_variable(r, log->fields[i].index);

        if (value == NULL || value->not_found) {
            values[i] = NULL;
            continue;
        }

        values[i] = value;
        extra[i] = rampart_log_extra(value->data, value->len);
        len += value->len + extra[i];
    }

    buffer = log->file->data;

    if (buffer) {

        if (len > (size_t) (buffer->last - buffer->pos)) {
            rampart_log_file_write(r, log, buffer->start, buffer->pos - buffer->start);
            buffer->pos = buffer->start;
        }

        if (len <= (size_t) (buffer->last - buffer->pos)) {

            if (buffer->event && buffer->pos == buffer->start) {
                ngx_add_timer(buffer->event, buffer->flush);
            }

            buffer->pos = rampart_log_line(r, log, buffer->pos, values, extra);
            return;
        }

        if (buffer->event && buffer->event->timer_set) {
            ngx_del_timer(buffer->event);
        }
    }

    line = ngx_pnalloc(r->pool, len);
    if (line == NULL) {
        return;
    }

    p = rampart_log_line(r, log, line, values, extra);

    rampart_log_file_write(r, log, line, p - line);
}


static void
rampart_log_file_write(ngx_http_request_t *r, rampart_log_t *log, u_char *buf, size_t len)
{
    time_t     now;
    ssize_t    n;
    ngx_err_t  err;

    if (len == 0) {
        return;
    }

    n = ngx_write_fd(log->file->fd, buf, len);

    if (n == (ssize_t) len) {
        return;
    }

    now = ngx_time();

    if (n == -1) {
        err = ngx_errno;

        if (err == NGX_ENOSPC) {
            log->disk_full_time = now;
        }

        if (now - log->error_log_time > 59) {
            ngx_log_error(NGX_LOG_ALERT, r->connection->log, err,
                          ngx_write_fd_n " to \"%s\" failed", log->file->name.data);
            log->error_log_time = now;
        }

        return;
    }

    if (now - log->error_log_time > 59) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      ngx_write_fd_n " to \"%s\" was incomplete: %z of %uz",
                      log->file->name.data, n, len);
        log->error_log_time = now;
    }
}


static void
rampart_log_flush(ngx_open_file_t *file, ngx_log_t *log)
{
    size_t              len;
    ssize_t             n;
    rampart_log_buf_t  *buffer;

    buffer = file->data;
    len = buffer->pos - buffer->start;

    if (len == 0) {
        return;
    }

    n = ngx_write_fd(file->fd, buffer->start, len);

    if (n == -1) {
        ngx_log_error(NGX_LOG_ALERT, log, ngx_errno,
                      ngx_write_fd_n " to \"%s\" failed", file->name.data);

    } else if ((size_t) n != len) {
        ngx_log_error(NGX_LOG_ALERT, log, 0,
                      ngx_write_fd_n " to \"%s\" was incomplete: %z of %uz",
                      file->name.data, n, len);
    }

    buffer->pos = buffer->start;

    if (buffer->event && buffer->event->timer_set) {
        ngx_del_timer(buffer->event);
    }
}


static void
rampart_log_flush_handler(ngx_event_t *ev)
{
    rampart_log_flush(ev->data, ev->log);
}


char *
rampart_log_conf(ngx_conf_t *cf, rampart_log_t **out)
{
    size_t               size;
    ngx_str_t           *value, s;
    ngx_uint_t           i, options;
    ngx_msec_t           flush;
    rampart_log_t       *log;
    rampart_log_buf_t   *buffer;
    rampart_log_spec_t  *spec;
    rampart_log_field_t *field;

    if (*out != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (ngx_strcmp(value[1].data, "off") == 0) {
        if (cf->args->nelts != 2) {
            return "takes nothing after \"off\"";
        }

        *out = NULL;
        return NGX_CONF_OK;
    }

    log = ngx_pcalloc(cf->pool, sizeof(rampart_log_t));
    if (log == NULL) {
        return NGX_CONF_ERROR;
    }

    log->file = ngx_conf_open_file(cf->cycle, &value[1]);
    if (log->file == NULL) {
        return NGX_CONF_ERROR;
    }

    size = 0;
    flush = 0;
    options = 0;

    for (i = 2; i < cf->args->nelts; i++) {

        if (ngx_strncmp(value[i].data, "buffer=", 7) == 0) {
            s.len = value[i].len - 7;
            s.data = value[i].data + 7;
            size = ngx_parse_size(&s);

            if (size == (size_t) NGX_ERROR || size == 0) {
                ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "invalid buffer size \"%V\"", &s);
                return NGX_CONF_ERROR;
            }

            continue;
        }

        if (ngx_strncmp(value[i].data, "flush=", 6) == 0) {
            s.len = value[i].len - 6;
            s.data = value[i].data + 6;
            flush = ngx_parse_time(&s, 0);

            if (flush == (ngx_msec_t) NGX_ERROR || flush == 0) {
                ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "invalid flush time \"%V\"", &s);
                return NGX_CONF_ERROR;
            }

            continue;
        }

        if (ngx_strcmp(value[i].data, "country") == 0) {
            options |= RAMPART_LOG_COUNTRY;
            continue;
        }

        if (ngx_strcmp(value[i].data, "waf") == 0) {
            options |= RAMPART_LOG_WAF;
            continue;
        }

        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "invalid parameter \"%V\"", &value[i]);
        return NGX_CONF_ERROR;
    }

    if (flush && size == 0) {
        return "has flush= without buffer=";
    }

    log->fixed = rampart_log_end.len + NGX_LINEFEED_SIZE;

    for (i = 0; i < sizeof(rampart_log_specs) / sizeof(rampart_log_specs[0]); i++) {
        spec = &rampart_log_specs[i];

        if (spec->option && !(options & spec->option)) {
            continue;
        }

        field = &log->fields[log->nfields++];
        field->prefix = spec->prefix;
        field->kind = spec->kind;
        field->index = NGX_ERROR;
        log->fixed += spec->prefix.len;

        switch (spec->kind) {

        case RAMPART_LOG_VARIABLE:
            field->index = ngx_http_get_variable_index(cf, &spec->variable);
            if (field->index == NGX_ERROR) {
                return NGX_CONF_ERROR;
            }

            break;

        case RAMPART_LOG_STATUS:
            log->fixed += NGX_INT_T_LEN;
            break;

        case RAMPART_LOG_BYTES_SENT:
        case RAMPART_LOG_REQUEST_LENGTH:
            log->fixed += NGX_OFF_T_LEN;
            break;

        case RAMPART_LOG_UPSTREAM_TIME:
            /* its length is the request's (rampart_log_upstream_len) */
            break;

        default: /* RAMPART_LOG_MSEC, RAMPART_LOG_REQUEST_TIME */
            log->fixed += NGX_TIME_T_LEN + 4;
        }
    }

    *out = log;

    if (log->file->data) {
        /* The same file named by another rampart_access_log: one buffer, so the same settings. */
        buffer = log->file->data;

        if (log->file->flush != rampart_log_flush
            || (size_t) (buffer->last - buffer->start) != size || buffer->flush != flush)
        {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "\"%V\" is already a log with other parameters", &value[1]);
            return NGX_CONF_ERROR;
        }

        return NGX_CONF_OK;
    }

    if (size == 0) {
        return NGX_CONF_OK;
    }

    buffer = ngx_pcalloc(cf->pool, sizeof(rampart_log_buf_t));
    if (buffer == NULL) {
        return NGX_CONF_ERROR;
    }

    buffer->start = ngx_pnalloc(cf->pool, size);
    if (buffer->start == NULL) {
        return NGX_CONF_ERROR;
    }

    buffer->pos = buffer->start;
    buffer->last = buffer->start + size;

    if (flush) {
        buffer->event = ngx_pcalloc(cf->pool, sizeof(ngx_event_t));
        if (buffer->event == NULL) {
            return NGX_CONF_ERROR;
        }

        buffer->event->data = log->file;
        buffer->event->handler = rampart_log_flush_handler;
        buffer->event->log = &cf->cycle->new_log;
        buffer->event->cancelable = 1;
        buffer->flush = flush;
    }

    log->file->flush = rampart_log_flush;
    log->file->data = buffer;

    return NGX_CONF_OK;
}
