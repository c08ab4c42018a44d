/**
 * The words of the mails an account gets, in each language the app speaks (LANGUAGES, rules.ts):
 * the mail goes out in the account's language (users.language). English is the source: its texts
 * are the ones the mails have always had. A language without a text here, or a text missing from
 * a language, fails the typecheck. Product names ("Cubes AI", "Cubey", "CUBE3") stay as they are
 * in every language. The texts are plain (no markup, nothing to escape): mailer.ts puts them in
 * the text part as they are and in the HTML part one paragraph each.
 */
import type { Language } from '../rules.js';

/** A mail that carries a code: the code follows `codeIs`, then come the paragraphs of `after`. */
export interface CodeMailText {
  subject: string;
  /** Ends with a colon: the text part puts the code after it on its line, the HTML part below it. */
  codeIs: string;
  /** The paragraphs after the code, for a code valid `minutes` minutes. */
  after: (minutes: number) => string[];
}

export interface MailTexts {
  /** The password reset code (forgot password), to the account's address. */
  passwordReset: CodeMailText;
  /** The code that confirms a new address (Settings, Change email), to that new address. */
  emailChange: CodeMailText;
}

/** "15 Minuten"; one minute is "eine Minute". */
function germanMinutes(minutes: number): string {
  return minutes === 1 ? 'eine Minute' : `${minutes} Minuten`;
}

/**
 * "15 دقيقة" after لمدة: Arabic counts 1 and 2 by the noun alone (دقيقة واحدة، دقيقتين), 3 to 10
 * with the plural (دقائق), 11 and up with the singular.
 */
function arabicMinutes(minutes: number): string {
  if (minutes === 1) return 'دقيقة واحدة';
  if (minutes === 2) return 'دقيقتين';
  if (minutes >= 3 && minutes <= 10) return `${minutes} دقائق`;
  return `${minutes} دقيقة`;
}

export const MAIL_TEXTS: Record<Language, MailTexts> = {
  en: {
    passwordReset: {
      subject: 'Your Cubes AI reset code',
      codeIs: 'Your Cubes AI password reset code is:',
      after: (minutes) => [
        `The code is valid for ${minutes} minutes.`,
        'If you did not ask to reset your password, you can ignore this email.',
      ],
    },
    emailChange: {
      subject: 'Confirm your new Cubes AI email address',
      codeIs: 'Your Cubes AI email confirmation code is:',
      after: (minutes) => [
        `Enter it in Settings to make this your account's email address. The code is valid for ${minutes} minutes.`,
        'If you did not ask for this, you can ignore this email: nothing changes without the code.',
      ],
    },
  },
  de: {
    passwordReset: {
      subject: 'Dein Code zum Zurücksetzen des Passworts bei Cubes AI',
      codeIs: 'Dein Code zum Zurücksetzen deines Passworts bei Cubes AI lautet:',
      after: (minutes) => [
        `Der Code ist ${germanMinutes(minutes)} lang gültig.`,
        'Falls du das Zurücksetzen deines Passworts nicht angefordert hast, kannst du diese E-Mail einfach ignorieren.',
      ],
    },
    emailChange: {
      subject: 'Bestätige deine neue E-Mail-Adresse bei Cubes AI',
      codeIs: 'Dein Bestätigungscode für deine neue E-Mail-Adresse bei Cubes AI lautet:',
      after: (minutes) => [
        `Gib ihn in den Einstellungen ein, damit diese Adresse die E-Mail-Adresse deines Kontos wird. Der Code ist ${germanMinutes(minutes)} lang gültig.`,
        'Falls du das nicht angefordert hast, kannst du diese E-Mail einfach ignorieren: Ohne den Code ändert sich nichts.',
      ],
    },
  },
  ar: {
    passwordReset: {
      subject: 'رمز إعادة تعيين كلمة المرور في Cubes AI',
      codeIs: 'رمز إعادة تعيين كلمة المرور لحسابك في Cubes AI هو:',
      after: (minutes) => [
        `الرمز صالح لمدة ${arabicMinutes(minutes)}.`,
        'إذا لم تطلب إعادة تعيين كلمة المرور، يمكنك تجاهل هذه الرسالة.',
      ],
    },
    emailChange: {
      subject: 'أكّد عنوان بريدك الإلكتروني الجديد في Cubes AI',
      codeIs: 'رمز تأكيد بريدك الإلكتروني الجديد في Cubes AI هو:',
      after: (minutes) => [
        `أدخل هذا الرمز في الإعدادات ليصبح هذا العنوان البريد الإلكتروني لحسابك. الرمز صالح لمدة ${arabicMinutes(minutes)}.`,
        'إذا لم تطلب ذلك، يمكنك تجاهل هذه الرسالة: لن يتغير شيء دون الرمز.',
      ],
    },
  },
};
