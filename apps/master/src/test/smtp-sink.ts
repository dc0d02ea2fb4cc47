import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  from: string;
  to: string;
  /** The message as it came over DATA: headers and body. */
  text: string;
}

export interface SmtpSink {
  host: string;
  port: number;
  /** Mail accepted, in order; the sink signs nobody in unless it was given a user. */
  mails: SunkMail[];
  close(): Promise<void>;
}

/**
 * A mail server on 127.0.0.1 that accepts every message (plain SMTP, no STARTTLS) and keeps it.
 * Given a user, it asks for that user's password and refuses any other.
 */
export async function startSmtpSink(user?: { name: string; password: string }): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: user === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (user && auth.username === user.name && auth.password === user.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(',');
        mails.push({ from, to, text: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
