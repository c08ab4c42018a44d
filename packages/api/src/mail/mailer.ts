/**
 * Outgoing mail. Two real transports: SMTP (nodemailer) when SMTP_URL is set, otherwise the console
 * (so without SMTP the reset code is logged on the server console; docs/web.md, "Password reset").
 */
import escapeHtml from 'escape-html';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { DEFAULT_LANGUAGE, isRtl, type Language } from '../rules.js';
import { type CodeMailText, MAIL_TEXTS } from './mail-texts.js';

export interface Mailer {
  /** In `language`, the account's (mail-texts.ts). */
  sendPasswordReset(to: string, code: string, language: Language): Promise<void>;
  /** The code that confirms a new e-mail address, sent to that new address in the account's `language`. */
  sendEmailChangeCode(to: string, code: string, language: Language): Promise<void>;
  /**
   * Sent instead of a code when a member asks to move to an address that another account already
   * has: the owner of the mailbox learns of it; the member who asked is told nothing different.
   */
  sendEmailInUseNotice(to: string): Promise<void>;
  /**
   * Sent to the old address once a change is confirmed: if someone else took over the account,
   * its owner hears of it where they still read mail.
   */
  sendEmailChangedNotice(to: string, newEmail: string): Promise<void>;
}

export const DEFAULT_MAIL_FROM = 'Cubes AI <no-reply@cubes.local>';
export const RESET_CODE_TTL_MINUTES = 15;
/** The English subjects (mail-texts.ts has every language's). */
export const RESET_MAIL_SUBJECT = MAIL_TEXTS.en.passwordReset.subject;

export const EMAIL_CHANGE_MAIL_SUBJECT = MAIL_TEXTS.en.emailChange.subject;
export const EMAIL_IN_USE_MAIL_SUBJECT = 'Someone tried to use this address on Cubes AI';
export const EMAIL_CHANGED_MAIL_SUBJECT = 'Your Cubes AI email address was changed';

export interface ResetMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * A mail that carries a code, in `language`: the text part as the texts are; the HTML part one
 * paragraph each, the code large between them, and for a language other than English inside an
 * element that names it (and its direction: Arabic's is right to left). English's HTML has no
 * such element, as it never had.
 */
function codeMail(texts: CodeMailText, code: string, language: Language): ResetMail {
  const after = texts.after(RESET_CODE_TTL_MINUTES);
  const paragraphs = [
    `<p>${texts.codeIs}</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p>`,
    ...after.map((paragraph) => `<p>${paragraph}</p>`),
  ];
  const attributes = `${isRtl(language) ? 'dir="rtl" ' : ''}lang="${language}"`;
  return {
    subject: texts.subject,
    text: [`${texts.codeIs} ${code}`, '', ...after, ''].join('\n'),
    html: (language === 'en' ? paragraphs : [`<div ${attributes}>`, ...paragraphs, '</div>']).join('\n'),
  };
}

export function passwordResetMail(code: string, language: Language = DEFAULT_LANGUAGE): ResetMail {
  return codeMail(MAIL_TEXTS[language].passwordReset, code, language);
}

export function emailChangeMail(code: string, language: Language = DEFAULT_LANGUAGE): ResetMail {
  return codeMail(MAIL_TEXTS[language].emailChange, code, language);
}

export function emailInUseMail(): ResetMail {
  const lines = [
    'A member of Cubes AI asked to use this email address for their account.',
    'This address already belongs to a Cubes AI account, so it was not added to another one, and no code was sent.',
    'If this was you, sign in with this address instead. If it was not, you can ignore this email: nothing changed.',
  ];
  return {
    subject: EMAIL_IN_USE_MAIL_SUBJECT,
    text: [...lines, ''].join('\n'),
    html: lines.map((line) => `<p>${line}</p>`).join('\n'),
  };
}

/**
 * Starts sending and returns at once: the answer must not wait for the mail server (a slow one
 * would tell an account that gets mail from one that does not). The send starts now (a recording
 * mailer has its mail before the caller goes on); a failure is logged, never thrown.
 */
export function sendWithoutWaiting(
  logError: ((message: string, error: unknown) => void) | undefined,
  what: string,
  send: () => Promise<void>,
): void {
  try {
    send().catch((error: unknown) => logError?.(what, error));
  } catch (error) {
    logError?.(what, error);
  }
}

export function emailChangedMail(newEmail: string): ResetMail {
  const lines = (address: string) => [
    `The email address of your Cubes AI account was changed to ${address}. Mail for the account now goes there.`,
    'If this was you, there is nothing to do.',
    "If it was not, someone has your password: reset it from the login page with the new address if you can reach it, and report it to the community's moderators.",
  ];
  return {
    subject: EMAIL_CHANGED_MAIL_SUBJECT,
    text: [...lines(newEmail), ''].join('\n'),
    html: lines(escapeHtml(newEmail))
      .map((line) => `<p>${line}</p>`)
      .join('\n'),
  };
}

/** Sends through an SMTP server named by a URL (smtp://user:pass@host:port, smtps://...). */
export function createSmtpMailer(options: {
  url: string;
  from?: string;
  /** extra nodemailer SMTP options (tests: ignoreTLS against a plain local server) */
  transport?: Record<string, unknown>;
}): Mailer {
  const transporter = nodemailer.createTransport({
    url: options.url,
    // A stuck server must not hold a forgot-password request for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
    ...(options.transport ?? {}),
  } as SMTPTransport.Options);
  const from = options.from || DEFAULT_MAIL_FROM;
  const send = async (to: string, mail: ResetMail) => {
    await transporter.sendMail({ from, to, subject: mail.subject, text: mail.text, html: mail.html });
  };
  return {
    sendPasswordReset: (to, code, language) => send(to, passwordResetMail(code, language)),
    sendEmailChangeCode: (to, code, language) => send(to, emailChangeMail(code, language)),
    sendEmailInUseNotice: (to) => send(to, emailInUseMail()),
    sendEmailChangedNotice: (to, newEmail) => send(to, emailChangedMail(newEmail)),
  };
}

/** Logs the code through `log` instead of sending mail (no SMTP configured). */
export function createConsoleMailer(log: (line: string) => void): Mailer {
  return {
    async sendPasswordReset(to, code) {
      log(
        `Password reset code for ${to}: ${code} (valid ${RESET_CODE_TTL_MINUTES} minutes; set SMTP_URL to send it by email)`,
      );
    },
    async sendEmailChangeCode(to, code) {
      log(
        `Email confirmation code for ${to}: ${code} (valid ${RESET_CODE_TTL_MINUTES} minutes; set SMTP_URL to send it by email)`,
      );
    },
    async sendEmailInUseNotice(to) {
      log(
        `Email change to ${to} asked for, but it belongs to another account: no code sent (a notice was mailed)`,
      );
    },
    async sendEmailChangedNotice(to, newEmail) {
      log(`Email address ${to} was changed to ${newEmail} (a notice goes to the old address with SMTP_URL)`);
    },
  };
}

/** A mailer that keeps what it would send; the default of test contexts. */
export interface RecordedMail {
  kind: 'password-reset' | 'email-change' | 'email-in-use' | 'email-changed';
  to: string;
  /** The code mailed; '' for the notices, which carry none. */
  code: string;
  /** The new address, for the email-changed notice. */
  newEmail?: string;
  /** The language the mail is written in, for the mails that carry a code. */
  language?: Language;
}

export interface RecordingMailer extends Mailer {
  sent: RecordedMail[];
}

export function createRecordingMailer(): RecordingMailer {
  const sent: RecordedMail[] = [];
  return {
    sent,
    async sendPasswordReset(to, code, language) {
      sent.push({ kind: 'password-reset', to, code, language });
    },
    async sendEmailChangeCode(to, code, language) {
      sent.push({ kind: 'email-change', to, code, language });
    },
    async sendEmailInUseNotice(to) {
      sent.push({ kind: 'email-in-use', to, code: '' });
    },
    async sendEmailChangedNotice(to, newEmail) {
      sent.push({ kind: 'email-changed', to, code: '', newEmail });
    },
  };
}
