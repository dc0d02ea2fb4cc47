// The TLS client and certificate maker of bench/edge-tls.ts, in C so that the client costs less
// than the server it measures (a Node client spends more per handshake than nginx does).
//   tls-load client <ip> <port> <sni> <names> <seconds> <procs> <new|resume> <1.2|1.3> [first]
//     `procs` processes each open one connection after another for `seconds`: a TLS handshake with
//     SNI `sni` (a `%d` in it is replaced by 0..names-1, a different name each connection, the
//     sequence starting at its `first` step, so that runs can go on where the last one ended), one GET
//     with Connection: close, read to the end. `resume` offers the last session (ticket) again.
//     Prints: handshakes=N resumed=N failed=N cpu=<client CPU seconds>
//   tls-load certs <ec|rsa> <dir> <domain, %d for the number> <count>
//     Self-signed certificates <dir>/<i>.pem with their keys <dir>/<i>.key, each key its own.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// One connection: handshake, request, response to the end. 1 done, 0 failed.
static int one(SSL_CTX *ctx, struct sockaddr_in *addr, const char *sni, SSL_SESSION **session, int *resumed) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  struct timeval timeout = {5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  int ok = 0;
  SSL *ssl = NULL;
  if (connect(fd, (struct sockaddr *)addr, sizeof *addr) != 0) goto done;
  ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  SSL_set_tlsext_host_name(ssl, sni);
  if (session && *session) SSL_set_session(ssl, *session);
  if (SSL_connect(ssl) != 1) goto done;
  char request[512];
  int length = snprintf(request, sizeof request, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", sni);
  if (SSL_write(ssl, request, length) != length) goto done;
  char buffer[16384];
  int first = 1, status_ok = 0, n;
  while ((n = SSL_read(ssl, buffer, sizeof buffer)) > 0) {
    if (first) status_ok = n >= 12 && memcmp(buffer, "HTTP/1.1 200", 12) == 0;
    first = 0;
  }
  if (!status_ok) goto done;
  ok = 1;
  if (SSL_session_reused(ssl)) (*resumed)++;
  if (session) {
    SSL_SESSION *next = SSL_get1_session(ssl);
    if (next) {
      if (*session) SSL_SESSION_free(*session);
      *session = next;
    }
  }
done:
  // A session closed without close_notify is marked not resumable.
  if (ssl) {
    if (ok) SSL_shutdown(ssl);
    SSL_free(ssl);
  }
  close(fd);
  ERR_clear_error();
  return ok;
}

static int client(int argc, char **argv) {
  if (argc != 10 && argc != 11) return 2;
  long first = argc == 11 ? atol(argv[10]) : 0;
  const char *ip = argv[2], *pattern = argv[4];
  int port = atoi(argv[3]), names = atoi(argv[5]), procs = atoi(argv[7]);
  double seconds = atof(argv[6]);
  int resume = strcmp(argv[8], "resume") == 0;
  int version = strcmp(argv[9], "1.2") == 0 ? TLS1_2_VERSION : TLS1_3_VERSION;
  if (names < 1 || procs < 1 || seconds <= 0 || seconds > 600) return 2;
  int pipes[2];
  if (pipe(pipes) != 0) return 1;
  for (int p = 0; p < procs; p++) {
    if (fork() != 0) continue;
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(ctx, version);
    SSL_CTX_set_max_proto_version(ctx, version);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, ip, &addr.sin_addr);
    SSL_SESSION *session = NULL;
    long done = 0, failed = 0;
    int resumed = 0;
    double deadline = now() + seconds;
    char sni[256];
    for (long i = p; now() < deadline; i += procs) {
      snprintf(sni, sizeof sni, pattern, (int)(((first + i) * 7919) % names));
      if (one(ctx, &addr, sni, resume ? &session : NULL, &resumed)) done++;
      else failed++;
    }
    char line[128];
    int length = snprintf(line, sizeof line, "%ld %d %ld\n", done, resumed, failed);
    if (write(pipes[1], line, length) != length) _exit(1);
    _exit(0);
  }
  close(pipes[1]);
  FILE *in = fdopen(pipes[0], "r");
  long done = 0, failed = 0, d, f;
  int resumed = 0, r;
  while (fscanf(in, "%ld %d %ld", &d, &r, &f) == 3) {
    done += d;
    resumed += r;
    failed += f;
  }
  while (wait(NULL) > 0) {
  }
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  printf("handshakes=%ld resumed=%d failed=%ld cpu=%.3f\n", done, resumed, failed, cpu);
  return 0;
}

static int certs(int argc, char **argv) {
  if (argc != 6) return 2;
  int rsa = strcmp(argv[2], "rsa") == 0, count = atoi(argv[5]);
  for (int i = 0; i < count; i++) {
    char name[256], path[1024], san[300];
    snprintf(name, sizeof name, argv[4], i);
    EVP_PKEY *key = rsa ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256");
    X509 *cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), i + 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), 30L * 86400);
    X509_set_pubkey(cert, key);
    X509_NAME *subject = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, (unsigned char *)name, -1, -1, 0);
    X509_set_issuer_name(cert, subject);
    snprintf(san, sizeof san, "DNS:%s", name);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, NULL, NID_subject_alt_name, san);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
    if (!X509_sign(cert, key, EVP_sha256())) return 1;
    snprintf(path, sizeof path, "%s/%d.pem", argv[3], i);
    FILE *out = fopen(path, "w");
    if (!out || !PEM_write_X509(out, cert)) return 1;
    fclose(out);
    snprintf(path, sizeof path, "%s/%d.key", argv[3], i);
    out = fopen(path, "w");
    if (!out || !PEM_write_PrivateKey(out, key, NULL, NULL, 0, NULL, NULL)) return 1;
    fclose(out);
    X509_free(cert);
    EVP_PKEY_free(key);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "client") == 0) return client(argc, argv);
  if (argc > 1 && strcmp(argv[1], "certs") == 0) return certs(argc, argv);
  fprintf(stderr, "usage: tls-load client|certs ...\n");
  return 2;
}
