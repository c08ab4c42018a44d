/**
 * Outgoing mail. Two real transports: SMTP (nodemailer) when SMTP_URL is set, otherwise the console
 * (so without SMTP the reset code is logged on the server console; docs/web.md, "Password reset").
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

export interface Mailer {
  sendPasswordReset(to: string, code: string): Promise<void>;
}

export const DEFAULT_MAIL_FROM = 'Cubes AI <no-reply@cubes.local>';
export const RESET_CODE_TTL_MINUTES = 15;
export const RESET_MAIL_SUBJECT = 'Your Cubes AI reset code';

export interface ResetMail {
  subject: string;
  text: string;
  html: string;
}

export function passwordResetMail(code: string): ResetMail {
  return {
    subject: RESET_MAIL_SUBJECT,
    text: [
      `Your Cubes AI password reset code is: ${code}`,
      '',
      `The code is valid for ${RESET_CODE_TTL_MINUTES} minutes.`,
      'If you did not ask to reset your password, you can ignore this email.',
      '',
    ].join('\n'),
    html: [
      '<p>Your Cubes AI password reset code is:</p>',
      `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p>`,
      `<p>The code is valid for ${RESET_CODE_TTL_MINUTES} minutes.</p>`,
      '<p>If you did not ask to reset your password, you can ignore this email.</p>',
    ].join('\n'),
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
  return {
    async sendPasswordReset(to, code) {
      const mail = passwordResetMail(code);
      await transporter.sendMail({ from, to, subject: mail.subject, text: mail.text, html: mail.html });
    },
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
  };
}

/** A mailer that keeps what it would send; the default of test contexts. */
export interface RecordingMailer extends Mailer {
  sent: { to: string; code: string }[];
}

export function createRecordingMailer(): RecordingMailer {
  const sent: { to: string; code: string }[] = [];
  return {
    sent,
    async sendPasswordReset(to, code) {
      sent.push({ to, code });
    },
  };
}
