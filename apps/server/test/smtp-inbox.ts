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

/** A received mail as a reader sees it: its headers unfolded, its subject and parts decoded. */
export interface ReadMail {
  subject: string;
  /** The text/plain part, decoded (UTF-8). */
  text: string;
  /** The text/html part, decoded (UTF-8). */
  html: string;
}

/** The bytes of one RFC 2047 encoded word's payload (B: base64, Q: quoted-printable-ish). */
function encodedWordBytes(encoding: string, payload: string): Buffer {
  if (encoding.toUpperCase() === 'B') return Buffer.from(payload, 'base64');
  return quotedPrintableBytes(payload.replace(/_/g, ' '));
}

function quotedPrintableBytes(value: string): Buffer {
  const bytes: number[] = [];
  const soft = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    const hex = soft[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(soft.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** Headers of a message or part, unfolded, by lower-case name. */
function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** A header value with its encoded words decoded (adjacent words join, as RFC 2047 says). */
function decodeHeader(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)(\s+(?==\?))?/g, '$1')
    .replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=)+/g, (words) => {
      const parts = [...words.matchAll(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g)];
      return Buffer.concat(parts.map((m) => encodedWordBytes(m[1]!, m[2]!))).toString('utf8');
    });
}

function splitHead(raw: string): [head: string, body: string] {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return [raw, ''];
  return [raw.slice(0, at), raw.slice(at).replace(/^\r?\n\r?\n/, '')];
}

function decodeBody(body: string, transferEncoding: string | undefined): string {
  const encoding = (transferEncoding ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintableBytes(body).toString('utf8');
  return body;
}

/** Decodes `mail` (nodemailer's text + HTML: one multipart/alternative) enough for assertions. */
export function readMail(mail: ReceivedMail): ReadMail {
  const [head, body] = splitHead(mail.raw);
  const headers = headersOf(head);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [mail.raw];
  const read: ReadMail = { subject: decodeHeader(headers.get('subject') ?? ''), text: '', html: '' };
  for (const part of parts) {
    const [partHead, partBody] = splitHead(part.replace(/^\r?\n/, ''));
    const partHeaders = headersOf(partHead);
    const decoded = decodeBody(partBody.replace(/\r?\n$/, ''), partHeaders.get('content-transfer-encoding'));
    const type = partHeaders.get('content-type') ?? '';
    if (/^text\/plain/i.test(type)) read.text = decoded.replace(/\r\n/g, '\n');
    else if (/^text\/html/i.test(type)) read.html = decoded.replace(/\r\n/g, '\n');
  }
  return read;
}
