import { formatFileSize } from '#app/text/format.ts'

// What staff are told about a video upload; client-safe, shared by the form and the server.

export const videoTooLarge = (maxBytes: number) => `حجم الفيديو أكبر من المسموح (${formatFileSize(maxBytes)}). اختر ملفاً أصغر أو اضغطه ثم أعد المحاولة.`
export const notVideo = 'الملف ليس فيديو. اختر ملف فيديو بصيغة MP4 أو WebM أو MOV.'
export const videoUploadFailed = 'لم يكتمل رفع الفيديو. حاول مرة أخرى.'
/** The text inside <video> for a browser that cannot play it. */
export const noVideoSupport = 'متصفحك لا يدعم تشغيل الفيديو. يمكنك تنزيله من الرابط أدناه.'
