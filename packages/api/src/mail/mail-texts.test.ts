import { USER_LANGUAGES } from '@cubes/db';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../rules.js';
import { MAIL_TEXTS } from './mail-texts.js';
import { emailChangeMail, passwordResetMail } from './mailer.js';

const CODE_STYLE = 'font-size:24px;font-weight:bold;letter-spacing:4px';

describe('the mails in each language', () => {
  it('keeps the English mails exactly as they were', () => {
    expect(passwordResetMail('123456')).toEqual(passwordResetMail('123456', 'en'));
    expect(passwordResetMail('123456')).toEqual({
      subject: 'Your Cubes AI reset code',
      text: 'Your Cubes AI password reset code is: 123456\n\nThe code is valid for 15 minutes.\nIf you did not ask to reset your password, you can ignore this email.\n',
      html: `<p>Your Cubes AI password reset code is:</p>\n<p style="${CODE_STYLE}">123456</p>\n<p>The code is valid for 15 minutes.</p>\n<p>If you did not ask to reset your password, you can ignore this email.</p>`,
    });
    expect(emailChangeMail('654321')).toEqual({
      subject: 'Confirm your new Cubes AI email address',
      text: "Your Cubes AI email confirmation code is: 654321\n\nEnter it in Settings to make this your account's email address. The code is valid for 15 minutes.\nIf you did not ask for this, you can ignore this email: nothing changes without the code.\n",
      html: `<p>Your Cubes AI email confirmation code is:</p>\n<p style="${CODE_STYLE}">654321</p>\n<p>Enter it in Settings to make this your account's email address. The code is valid for 15 minutes.</p>\n<p>If you did not ask for this, you can ignore this email: nothing changes without the code.</p>`,
    });
  });

  it('writes the German mails in German, the code in both parts', () => {
    const reset = passwordResetMail('123456', 'de');
    expect(reset.subject).toBe('Dein Code zum Zurücksetzen des Passworts bei Cubes AI');
    expect(reset.text).toBe(
      'Dein Code zum Zurücksetzen deines Passworts bei Cubes AI lautet: 123456\n\nDer Code ist 15 Minuten lang gültig.\nFalls du das Zurücksetzen deines Passworts nicht angefordert hast, kannst du diese E-Mail einfach ignorieren.\n',
    );
    expect(reset.html).toMatch(/^<div lang="de">\n<p>Dein Code zum Zurücksetzen/);
    expect(reset.html).toContain(`<p style="${CODE_STYLE}">123456</p>`);
    expect(reset.html).toMatch(/\n<\/div>$/);

    const change = emailChangeMail('654321', 'de');
    expect(change.subject).toBe('Bestätige deine neue E-Mail-Adresse bei Cubes AI');
    expect(change.text).toContain('lautet: 654321\n');
    expect(change.text).toContain('Gib ihn in den Einstellungen ein');
    expect(change.html).toContain(`<p style="${CODE_STYLE}">654321</p>`);
  });

  it('writes the Arabic mails in Arabic, the HTML part right to left', () => {
    const reset = passwordResetMail('123456', 'ar');
    expect(reset.subject).toBe('رمز إعادة تعيين كلمة المرور في Cubes AI');
    expect(reset.text).toBe(
      'رمز إعادة تعيين كلمة المرور لحسابك في Cubes AI هو: 123456\n\nالرمز صالح لمدة 15 دقيقة.\nإذا لم تطلب إعادة تعيين كلمة المرور، يمكنك تجاهل هذه الرسالة.\n',
    );
    expect(reset.html).toMatch(/^<div dir="rtl" lang="ar">\n<p>رمز إعادة تعيين/);
    expect(reset.html).toContain(`<p style="${CODE_STYLE}">123456</p>`);

    const change = emailChangeMail('654321', 'ar');
    expect(change.subject).toBe('أكّد عنوان بريدك الإلكتروني الجديد في Cubes AI');
    expect(change.text).toContain('هو: 654321\n');
    expect(change.html).toMatch(/^<div dir="rtl" lang="ar">\n/);
  });

  it('has every mail in every language, translated, the product name kept', () => {
    expect(Object.keys(MAIL_TEXTS)).toEqual([...LANGUAGES]);
    for (const language of LANGUAGES) {
      for (const mail of [passwordResetMail('111111', language), emailChangeMail('222222', language)]) {
        expect(mail.subject).toContain('Cubes AI');
        expect(mail.text).toMatch(/: (111111|222222)\n/);
        if (language !== 'en') {
          // Nothing of the English is left in it.
          expect(mail.text).not.toMatch(/\b(the|code is|you|email)\b/i);
        }
      }
    }
  });

  it('names the same languages as the users.language column', () => {
    expect([...USER_LANGUAGES]).toEqual([...LANGUAGES]);
  });
});
