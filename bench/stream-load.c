// The client of bench/edge-stream.ts, in C so that it costs less than the proxy it measures.
//   stream-load tcp <port> <seconds> <procs> [request]
//     `procs` processes each open one TCP connection after another to 127.0.0.1:<port>, send
//     `request` if given, read to the end and close. Prints: count=N bytes=N failed=N cpu=S
//   stream-load udp <port> <seconds> <procs>
//     `procs` processes (one UDP socket, so one proxy session, each) send a datagram and wait for
//     the answer, one after another. Prints the same fields.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

static void timeouts(int fd) {
  struct timeval timeout = {5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

// One TCP connection: bytes read to the end, or -1.
static long tcp_once(struct sockaddr_in *addr, const char *request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeouts(fd);
  long total = -1;
  if (connect(fd, (struct sockaddr *)addr, sizeof *addr) != 0) goto done;
  if (request) {
    size_t length = strlen(request);
    if (write(fd, request, length) != (ssize_t)length) goto done;
  }
  static char buffer[1 << 17];
  ssize_t n;
  long read_bytes = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) read_bytes += n;
  if (n == 0 && read_bytes > 0) total = read_bytes;
done:
  close(fd);
  return total;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: stream-load tcp|udp <port> <seconds> <procs> [request]\n");
    return 2;
  }
  int udp = strcmp(argv[1], "udp") == 0, port = atoi(argv[2]), procs = atoi(argv[4]);
  double seconds = atof(argv[3]);
  const char *request = argc > 5 ? argv[5] : NULL;
  if (procs < 1 || seconds <= 0 || seconds > 600) return 2;
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  int pipes[2];
  if (pipe(pipes) != 0) return 1;
  for (int p = 0; p < procs; p++) {
    if (fork() != 0) continue;
    long count = 0, bytes = 0, failed = 0;
    double deadline = now() + seconds;
    int fd = -1;
    if (udp) {
      fd = socket(AF_INET, SOCK_DGRAM, 0);
      timeouts(fd);
      if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) _exit(1);
    }
    while (now() < deadline) {
      if (udp) {
        char answer[2048];
        if (send(fd, "ping", 4, 0) != 4) {
          failed++;
          continue;
        }
        ssize_t n = recv(fd, answer, sizeof answer, 0);
        if (n > 0) {
          count++;
          bytes += n;
        } else {
          failed++;
        }
      } else {
        long got = tcp_once(&addr, request);
        if (got > 0) {
          count++;
          bytes += got;
        } else {
          failed++;
        }
      }
    }
    char line[128];
    int length = snprintf(line, sizeof line, "%ld %ld %ld\n", count, bytes, failed);
    if (write(pipes[1], line, length) != length) _exit(1);
    _exit(0);
  }
  close(pipes[1]);
  FILE *in = fdopen(pipes[0], "r");
  long count = 0, bytes = 0, failed = 0, c, b, f;
  while (fscanf(in, "%ld %ld %ld", &c, &b, &f) == 3) {
    count += c;
    bytes += b;
    failed += f;
  }
  while (wait(NULL) > 0) {
  }
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  printf("count=%ld bytes=%ld failed=%ld cpu=%.3f\n", count, bytes, failed, cpu);
  return 0;
}
