// The baseline: a bare Fastify 5 server answering one JSON route, started the same way as the master.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ code: 0, msg: 'ok', data: { id: 1, account: 'admin' } }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.RAMPART_PORT) });
