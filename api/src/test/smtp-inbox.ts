/**
 * A real SMTP server on a free loopback port for tests that send through the app's mailer
 * (nodemailer over SMTP_URL): every message lands in `inbox` with its envelope and raw text.
 * Any login is accepted (an SMTP_URL with credentials); while `refuse` is set, messages are refused.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  inbox: Received[];
  url: string;
  /** While true the server answers every message with an error (a refusing mailbox). */
  refuse: boolean;
  close: () => Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: Received[] = [];
  let refuse = false;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
    onData(stream, session, cb) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        if (refuse) return cb(new Error('mailbox unavailable'));
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
  return {
    inbox,
    url,
    get refuse() {
      return refuse;
    },
    set refuse(on: boolean) {
      refuse = on;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
