export { type CodeMailText, MAIL_TEXTS, type MailTexts } from './mail-texts.js';
export {
  createConsoleMailer,
  createRecordingMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  EMAIL_CHANGE_MAIL_SUBJECT,
  EMAIL_CHANGED_MAIL_SUBJECT,
  EMAIL_IN_USE_MAIL_SUBJECT,
  emailChangedMail,
  emailChangeMail,
  emailInUseMail,
  type Mailer,
  passwordResetMail,
  RESET_MAIL_SUBJECT,
  type RecordedMail,
  type RecordingMailer,
  sendWithoutWaiting,
} from './mailer.js';
