import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogger } from './request-logger.ts';

/** A Fastify app logging at `level` into `lines`, with a route that logs at warn and one that logs nothing. */
async function appLoggingAt(level: string, lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    disableRequestLogging: true,
    genReqId: () => 'req-1',
    childLoggerFactory: requestLogger,
  });
  app.get('/warns', async (request) => {
    request.log.warn({ detail: 1 }, 'something odd');
    return { ok: true };
  });
  app.get('/quiet', async (request) => {
    request.log.info('not at this level');
    return { level: request.log.level };
  });
  await app.ready();
  return app;
}

describe('the request logger', () => {
  it('writes a line at an enabled level with the request id bound', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingAt('warn', lines);
    expect((await app.inject({ method: 'GET', url: '/warns' })).statusCode).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ level: 40, reqId: 'req-1', detail: 1, msg: 'something odd' })]);
    await app.close();
  });

  it('writes nothing below the level, and answers the level of the app', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingAt('warn', lines);
    expect((await app.inject({ method: 'GET', url: '/quiet' })).json()).toEqual({ level: 'warn' });
    expect(lines).toEqual([]);
    await app.close();
  });

  it('makes the child only for a line that is written', () => {
    const made: unknown[] = [];
    const parent = {
      level: 'warn',
      isLevelEnabled: (level: string) => level === 'warn' || level === 'error' || level === 'fatal',
      child(bindings: unknown) {
        made.push(bindings);
        return { ...parent, warn: () => undefined };
      },
    };
    const log = requestLogger(parent as never, { reqId: 'r' }, {});
    log.info('dropped');
    log.debug('dropped');
    expect(made).toEqual([]);
    log.warn('kept');
    log.warn('kept again');
    expect(made).toEqual([{ reqId: 'r' }]);
  });

  it('makes the child at once for a route with its own level', () => {
    const made: unknown[] = [];
    const parent = { child: (bindings: unknown) => made.push(bindings) };
    requestLogger(parent as never, { reqId: 'r' }, { level: 'debug' });
    expect(made).toEqual([{ reqId: 'r' }]);
  });
});
