/**
 * A real SMTP server on a free loopback port for tests that send through the app's mailer
 * (nodemailer over SMTP_URL): every message lands in `inbox` with its envelope and raw text.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtpInbox(): Promise<{ inbox: Received[]; url: string; close: () => Promise<void> }> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  return { inbox, url, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
