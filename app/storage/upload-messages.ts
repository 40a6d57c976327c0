// Refusals every upload can meet, whatever it takes (app/storage/upload-stream.server.ts ContentRefusal),
// in the words of the other upload messages («الملف ليس PDF. اختر ملفاً بصيغة PDF.»). Client-safe:
// the forms that send files with a progress bar show them too.

/** A named file of 0 bytes (a damaged copy, a download that never finished). */
export const EMPTY_FILE = 'الملف فارغ لا يحتوي على أي بيانات. اختر الملف الصحيح.'

/** A PDF that carries scripts, programs to launch or files of its own (app/storage/pdf-active-content.server.ts). */
export const UNSAFE_PDF = 'ملف PDF يحتوي على برمجيات أو ملفات مضمّنة، فلا يُقبل لأسباب أمنية. احفظه من جديد بالطباعة إلى ملف PDF ثم أعد رفعه.'

/**
 * A file name with control characters (a bell, an escape, NUL): the request's part header cannot be
 * read, so the whole request is refused. Browsers send such names as they are; the bidi overrides
 * and C1 controls that do get through are dropped from the name instead.
 */
export const BAD_FILE_NAME = 'اسم الملف يحتوي على رموز غير مسموح بها. غيّر اسم الملف ثم أعد رفعه.'

export const contentRefusalMessages = { empty: EMPTY_FILE, 'unsafe-pdf': UNSAFE_PDF, 'bad-name': BAD_FILE_NAME } as const
