import { createSocket } from 'node:dgram';
import { connect, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStream } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { freePort } from './support/ports.ts';

describe('TCP and UDP streams', () => {
  let edge: TestEdge;
  let tcpOrigin: Server;
  const udpOrigin = createSocket('udp4');
  const tcpSeen: string[] = [];
  const ports = { tcpOrigin: 0, udpOrigin: 0, tcp: 0, udp: 0, proxied: 0 };

  beforeAll(async () => {
    edge = await createEdge();
    tcpOrigin = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        tcpSeen.push(chunk.toString('latin1'));
        socket.write(Buffer.concat([Buffer.from('echo:'), chunk]));
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => tcpOrigin.listen(0, '127.0.0.1', resolve));
    ports.tcpOrigin = (tcpOrigin.address() as { port: number }).port;
    udpOrigin.on('message', (message, peer) =>
      udpOrigin.send(Buffer.concat([Buffer.from('pong:'), message]), peer.port, peer.address),
    );
    await new Promise<void>((resolve) => udpOrigin.bind(0, '127.0.0.1', resolve));
    ports.udpOrigin = udpOrigin.address().port;
    ports.tcp = await freePort();
    ports.udp = await freePort();
    ports.proxied = await freePort();
    const origins = (port: number) => [{ address: '127.0.0.1', port, weight: 1, backup: false }];
    const outcome = await edge.applier.apply(
      edge.snapshot({
        streams: [
          makeStream({ id: 1, listen_port: ports.tcp, protocol: 'tcp', origins: origins(ports.tcpOrigin) }),
          makeStream({ id: 2, listen_port: ports.udp, protocol: 'udp', origins: origins(ports.udpOrigin) }),
          makeStream({
            id: 3,
            listen_port: ports.proxied,
            protocol: 'tcp',
            proxy_protocol: true,
            origins: origins(ports.tcpOrigin),
          }),
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
  });

  afterAll(async () => {
    await edge?.close();
    await new Promise((resolve) => tcpOrigin?.close(resolve));
    udpOrigin.close();
  });

  const tcpExchange = (port: number, message: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(message));
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.endsWith(message)) {
          socket.end();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.setTimeout(5000, () => reject(new Error('tcp timed out')));
    });

  it('forwards TCP bytes both ways', async () => {
    expect(await tcpExchange(ports.tcp, 'hello over tcp')).toBe('echo:hello over tcp');
  });

  it('forwards UDP datagrams both ways', async () => {
    const client = createSocket('udp4');
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        client.on('message', (message) => resolve(message.toString()));
        client.on('error', reject);
        client.send('ping', ports.udp, '127.0.0.1');
        setTimeout(() => reject(new Error('udp timed out')), 5000);
      });
      expect(reply).toBe('pong:ping');
    } finally {
      client.close();
    }
  });

  it('sends the PROXY protocol header to the origin when asked', async () => {
    tcpSeen.length = 0;
    const answer = await tcpExchange(ports.proxied, 'behind proxy');
    expect(answer.endsWith('behind proxy')).toBe(true);
    expect(tcpSeen.join('')).toMatch(/^PROXY TCP4 127\.0\.0\.1 127\.0\.0\.1 \d+ \d+\r\nbehind proxy/);
  });
});
