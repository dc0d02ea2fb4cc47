import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MailSink {
  url: string;
  /** Every message received, newest last. */
  received: { to: string; text: string }[];
  close: () => Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps what it receives: the e2e masters send their email
 * codes to it, as an operator's master sends them to its mail server (without one, the master
 * offers no email codes at all).
 */
export async function startMailSink(): Promise<MailSink> {
  const received: MailSink['received'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
        callback();
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
