export {
  createConsoleMailer,
  createRecordingMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  type Mailer,
  passwordResetMail,
  RESET_MAIL_SUBJECT,
  type RecordingMailer,
} from './mailer.js';
