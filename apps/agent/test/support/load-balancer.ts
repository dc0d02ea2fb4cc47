import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Nginx } from '../../src/apply/nginx.ts';
import { NGINX_BINARY } from './edge.ts';

/**
 * nginx as the HTTP load balancer in front of several masters, configured as the README's sample:
 * a master that refuses connections or answers 502/503 is skipped for a moment (passive health
 * checks) and the request goes to the next one; config polls may be held for a minute.
 */
export class MasterBalancer {
  readonly port: number;
  readonly prefix: string;
  private readonly nginx: Nginx;
  private readonly masters: number[];

  constructor(prefix: string, port: number, masterPorts: number[]) {
    this.prefix = prefix;
    this.port = port;
    this.masters = masterPorts;
    this.nginx = new Nginx({
      binary: NGINX_BINARY,
      prefix,
      errorLog: join(prefix, 'error.log'),
      pidFile: join(prefix, 'nginx.pid'),
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    await mkdir(this.prefix, { recursive: true });
    const conf = join(this.prefix, 'nginx.conf');
    await writeFile(conf, balancerConf(this.prefix, this.port, this.masters));
    const run = await this.nginx.start(conf);
    if (!run.ok) throw new Error(`the balancer did not start: ${run.output}`);
  }

  async stop(): Promise<void> {
    await this.nginx.stop(5000);
  }
}

export function balancerConf(prefix: string, port: number, masters: number[]): string {
  const temp = (name: string) => `${name}_temp_path ${join(prefix, name)};`;
  return `worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${temp('client_body')}
  ${temp('proxy')}
  ${temp('fastcgi')}
  ${temp('uwsgi')}
  ${temp('scgi')}
  upstream rampart_masters {
${masters.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=3s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 256m;
    location / {
      proxy_pass http://rampart_masters;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 90s;
      proxy_send_timeout 90s;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}
