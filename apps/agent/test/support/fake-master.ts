import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  type EdgeSnapshot,
  JobResultBody,
  LogBatchBody,
  NODE_SECRET_HEADER,
  NODE_TOKEN_HEADER,
  NodeMetricsBody,
  NodeStatusBody,
  RegisterNodeBody,
} from '@rampart/contracts';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

const check = (schema: TSchema) => {
  const compiled = Compile(schema);
  return (value: unknown) => compiled.Check(value);
};
const valid = {
  register: check(RegisterNodeBody),
  status: check(NodeStatusBody),
  logs: check(LogBatchBody),
  metrics: check(NodeMetricsBody),
  job: check(JobResultBody),
};

export interface FakeMaster {
  url: string;
  /** Registrations stay pending until this is set. */
  accept: boolean;
  /** While set, every connection is dropped (the master is unreachable). */
  down: boolean;
  reject: boolean;
  credential: string;
  registrations: RegisterNodeBody[];
  statuses: NodeStatusBody[];
  /** Stored batches by seq (each seq once), and how often each seq arrived. */
  batches: Map<number, LogBatchBody>;
  deliveries: number[];
  metrics: NodeMetricsBody[];
  jobResults: Array<{ id: number } & JobResultBody>;
  configPolls: number;
  /** Before answering a log batch: a hook (store it, then hang, to simulate a lost ack). */
  onLogBatch: ((batch: LogBatchBody) => Promise<'answer' | 'hang'>) | null;
  setSnapshot: (snapshot: EdgeSnapshot) => void;
  close: () => Promise<void>;
}

/** A master that speaks the agent API contract (envelope, headers, schemas) and records what agents send. */
export async function startFakeMaster(options: { port?: number } = {}): Promise<FakeMaster> {
  let snapshot: EdgeSnapshot | null = null;
  const waiting = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const master: FakeMaster = {
    url: '',
    accept: false,
    down: false,
    reject: false,
    credential: 'node-credential-0123456789abcdef',
    registrations: [],
    statuses: [],
    batches: new Map(),
    deliveries: [],
    metrics: [],
    jobResults: [],
    configPolls: 0,
    onLogBatch: null,
    setSnapshot: (next) => {
      snapshot = next;
      for (const wake of waiting) wake();
    },
    close: () =>
      new Promise((resolve) => {
        for (const wake of waiting) wake();
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const send = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown) => {
    let payload: Buffer = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (String(req.headers['accept-encoding'] ?? '').includes('gzip') && payload.length > 256) {
      payload = gzipSync(payload);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(status, headers);
    res.end(payload);
  };
  const ok = (req: IncomingMessage, res: ServerResponse, data: unknown) =>
    send(req, res, 200, { code: 0, msg: 'ok', data });
  const fail = (req: IncomingMessage, res: ServerResponse, status: number, code: string) =>
    send(req, res, status, { code, msg: code, data: null });

  const server: Server = createServer(async (req, res) => {
    if (master.down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    const url = new URL(req.url ?? '/', 'http://master');
    const path = url.pathname;
    const authed = req.headers[NODE_TOKEN_HEADER] === master.credential;

    if (req.method === 'POST' && path === '/agent/v1/register') {
      if (!valid.register(body)) return fail(req, res, 400, 'invalid_body');
      if ((body as RegisterNodeBody).install_token !== 'install-token-0123456789')
        return fail(req, res, 401, 'bad_token');
      master.registrations.push(body as RegisterNodeBody);
      return ok(req, res, { pending_id: master.registrations.length, poll_secret: 'poll-secret' });
    }
    const pending = /^\/agent\/v1\/register\/(\d+)$/.exec(path);
    if (req.method === 'GET' && pending) {
      if (req.headers[NODE_SECRET_HEADER] !== 'poll-secret') return fail(req, res, 401, 'login_required');
      if (master.reject) return ok(req, res, { state: 'rejected' });
      if (!master.accept) return ok(req, res, { state: 'pending' });
      return ok(req, res, { state: 'accepted', node_id: 7, credential: master.credential });
    }
    if (path.startsWith('/agent/v1/') && !authed) return fail(req, res, 401, 'login_required');
    if (req.method === 'GET' && path === '/agent/v1/config') {
      master.configPolls++;
      const version = Number(url.searchParams.get('version') ?? 0);
      const wait = Math.min(Number(url.searchParams.get('wait') ?? 30), 60);
      if (!snapshot || snapshot.version === version) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, wait * 1000);
          waiting.add(wake);
          req.on('close', wake);
        });
      }
      if (res.destroyed) return;
      const current = snapshot as EdgeSnapshot | null;
      if (!current || current.version === version) return ok(req, res, { version, changed: false });
      return ok(req, res, { version: current.version, changed: true, snapshot: current });
    }
    if (req.method === 'POST' && path === '/agent/v1/status') {
      if (!valid.status(body)) return fail(req, res, 400, 'invalid_body');
      master.statuses.push(body as NodeStatusBody);
      return ok(req, res, null);
    }
    if (req.method === 'POST' && path === '/agent/v1/logs') {
      if (!valid.logs(body)) return fail(req, res, 400, 'invalid_body');
      const batch = body as LogBatchBody;
      master.deliveries.push(batch.seq);
      const duplicate = master.batches.has(batch.seq);
      if (!duplicate) master.batches.set(batch.seq, batch);
      if (master.onLogBatch && (await master.onLogBatch(batch)) === 'hang') {
        hanging.add(res);
        return;
      }
      return ok(req, res, { seq: batch.seq, duplicate });
    }
    if (req.method === 'POST' && path === '/agent/v1/metrics') {
      if (!valid.metrics(body)) return fail(req, res, 400, 'invalid_body');
      master.metrics.push(body as NodeMetricsBody);
      return ok(req, res, null);
    }
    const job = /^\/agent\/v1\/jobs\/(\d+)\/result$/.exec(path);
    if (req.method === 'POST' && job) {
      if (!valid.job(body)) return fail(req, res, 400, 'invalid_body');
      master.jobResults.push({ id: Number(job[1]), ...(body as JobResultBody) });
      return ok(req, res, null);
    }
    return fail(req, res, 404, 'not_found');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  master.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return master;
}
