/**
 * Uppy's own words in the app's language (issue #50). Uppy has its own i18n (a `locale` of strings
 * with `%{name}` placeholders and plural forms indexed by `pluralize`), so its dashboard is not
 * translated through our catalogs; @uppy/locales ships German and Arabic.
 *
 * The dialog follows a language switched while it is mounted (uppy-image-dialog.tsx).
 *
 * - German: @uppy/locales' de_DE, with the lines the dashboard shows to a member in the app's "du"
 *   (de_DE says "Sie").
 * - Arabic: ar_SA gives the rest; every line the dashboard shows is our own (ar_SA's read as
 *   machine translation: "cancel upload" as "cancel the payment"), with all six Arabic plural
 *   forms, chosen by `Intl.PluralRules` (ar_SA knows two).
 *
 * Only the open dialog loads this module (uppy-image-dialog.tsx is a chunk of its own).
 */
import type { Language } from '@cubes/api/languages';
import type { UppyOptions } from '@uppy/core';
import ar_SA from '@uppy/locales/lib/ar_SA';
import de_DE from '@uppy/locales/lib/de_DE';
import en_US from '@uppy/locales/lib/en_US';

export type UppyLocale = NonNullable<UppyOptions<never, never>['locale']>;

/** Arabic's plural categories, in the order of the forms below. */
const ARABIC_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const arabicPlurals = new Intl.PluralRules('ar');

/** The six Arabic forms of a counted line, as Uppy indexes them (`pluralize` below). */
function arabic(forms: [string, string, string, string, string, string]): Record<number, string> {
  return Object.fromEntries(forms.map((form, index) => [index, form]));
}

const ARABIC: UppyLocale = {
  ...ar_SA,
  pluralize: (count: number) =>
    ARABIC_FORMS.indexOf(arabicPlurals.select(count) as (typeof ARABIC_FORMS)[number]),
  strings: {
    ...ar_SA.strings,
    addMore: 'إضافة المزيد',
    addMoreFiles: 'إضافة ملفات أخرى',
    addingMoreFiles: 'إضافة ملفات أخرى',
    back: 'رجوع',
    browse: 'تصفّح',
    browseFiles: 'تصفّح الملفات',
    cancel: 'إلغاء',
    cancelUpload: 'إلغاء الرفع',
    complete: 'اكتمل',
    dashboardTitle: 'رفع الملفات',
    dashboardWindowTitle: 'نافذة رفع الملفات (اضغط Esc للإغلاق)',
    dataUploadedOfTotal: '%{complete} من %{total}',
    done: 'تم',
    dropHint: 'أفلت ملفاتك هنا',
    dropPasteFiles: 'أفلت الملفات هنا أو %{browseFiles}',
    editFile: 'تعديل الملف',
    editing: 'تعديل %{file}',
    exceedsSize: 'حجم %{file} يتجاوز الحد المسموح به، وهو %{size}',
    failedToUpload: 'تعذّر رفع %{file}',
    finishEditingFile: 'إنهاء تعديل الملف',
    myDevice: 'جهازي',
    noDuplicates: 'الملف «%{fileName}» مضاف بالفعل، ولا يمكن إضافته مرتين',
    noMoreFilesAllowed: 'لا يمكن إضافة ملفات أخرى أثناء الرفع',
    pauseUpload: 'إيقاف الرفع مؤقتًا',
    removeFile: 'إزالة الملف',
    resumeUpload: 'استئناف الرفع',
    retry: 'إعادة المحاولة',
    retryUpload: 'إعادة محاولة الرفع',
    save: 'حفظ',
    saveChanges: 'حفظ التغييرات',
    showErrorDetails: 'عرض تفاصيل الخطأ',
    upload: 'رفع',
    uploadComplete: 'اكتمل الرفع',
    uploadFailed: 'تعذّر الرفع',
    uploadPaused: 'الرفع متوقف مؤقتًا',
    uploading: 'جارٍ الرفع',
    xTimeLeft: 'متبقٍّ %{time}',
    youCanOnlyUploadFileTypes: 'يمكنك رفع هذه الأنواع فقط: %{types}',
    filesUploadedOfTotal: arabic([
      'رُفع %{complete} من %{smart_count} ملف',
      'رُفع %{complete} من ملف واحد',
      'رُفع %{complete} من ملفين',
      'رُفع %{complete} من %{smart_count} ملفات',
      'رُفع %{complete} من %{smart_count} ملفًا',
      'رُفع %{complete} من %{smart_count} ملف',
    ]),
    uploadXFiles: arabic([
      'رفع %{smart_count} ملف',
      'رفع ملف واحد',
      'رفع ملفين',
      'رفع %{smart_count} ملفات',
      'رفع %{smart_count} ملفًا',
      'رفع %{smart_count} ملف',
    ]),
    uploadingXFiles: arabic([
      'جارٍ رفع %{smart_count} ملف',
      'جارٍ رفع ملف واحد',
      'جارٍ رفع ملفين',
      'جارٍ رفع %{smart_count} ملفات',
      'جارٍ رفع %{smart_count} ملفًا',
      'جارٍ رفع %{smart_count} ملف',
    ]),
    xFilesSelected: arabic([
      'لم يُحدَّد أي ملف',
      'حُدِّد ملف واحد',
      'حُدِّد ملفان',
      'حُدِّدت %{smart_count} ملفات',
      'حُدِّد %{smart_count} ملفًا',
      'حُدِّد %{smart_count} ملف',
    ]),
    xMoreFilesAdded: arabic([
      'لم يُضَف أي ملف آخر',
      'أُضيف ملف آخر',
      'أُضيف ملفان آخران',
      'أُضيفت %{smart_count} ملفات أخرى',
      'أُضيف %{smart_count} ملفًا آخر',
      'أُضيف %{smart_count} ملف آخر',
    ]),
    youCanOnlyUploadX: arabic([
      'لا يمكنك رفع أي ملف',
      'يمكنك رفع ملف واحد فقط',
      'يمكنك رفع ملفين فقط',
      'يمكنك رفع %{smart_count} ملفات فقط',
      'يمكنك رفع %{smart_count} ملفًا فقط',
      'يمكنك رفع %{smart_count} ملف فقط',
    ]),
  },
};

const GERMAN: UppyLocale = {
  ...de_DE,
  strings: {
    ...de_DE.strings,
    done: 'Fertig',
    dashboardWindowTitle: 'Dateien hochladen (Esc schließt)',
    exceedsSize: '%{file} ist größer als erlaubt (höchstens %{size})',
    noDuplicates: '„%{fileName}“ ist schon dabei und kann nicht noch einmal hinzugefügt werden',
    noMoreFilesAllowed: 'Während des Hochladens kannst du keine Dateien hinzufügen',
    youCanOnlyUploadFileTypes: 'Du kannst nur diese Dateitypen hochladen: %{types}',
    youCanOnlyUploadX: {
      0: 'Du kannst nur eine Datei hochladen',
      1: 'Du kannst nur %{smart_count} Dateien hochladen',
    },
  },
};

/** Uppy's locale for `language` (English is Uppy's own, named so a switch back to it applies). */
export function uppyLocale(language: Language): UppyLocale {
  return language === 'de' ? GERMAN : language === 'ar' ? ARABIC : en_US;
}
