/** A real SMTP server on loopback for tests, keeping what it receives; optionally slow to greet. */
import type { AddressInfo } from 'node:net';
import { createSmtpMailer, type Mailer } from '@cubes/api';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  mails: ReceivedMail[];
  mailer: Mailer;
  /** The mails to `address` so far. */
  to: (address: string) => ReceivedMail[];
  close: () => Promise<void>;
}

/** `greetAfterMs` holds every connection that long before the server says hello. */
export async function startSmtpInbox(options: { greetAfterMs?: number } = {}): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  // Plain SMTP on loopback: smtp-server's built-in certificate has expired (TOOLCHAIN.md).
  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (options.greetAfterMs) setTimeout(() => callback(), options.greetAfterMs);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as AddressInfo;
  const mailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${port}`,
    from: 'Cubes AI <no-reply@cubes.test>',
    transport: { secure: false, ignoreTLS: true },
  });
  return {
    mails,
    mailer,
    to: (address) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
