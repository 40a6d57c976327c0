import { desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { privacyNotices } from '#app/db/schema.ts'
import { sanitizeRichText } from '#app/utils/sanitize-html.server.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import { getEnv } from '#app/utils/env.server.ts'

// The privacy notice at /privacy (docs/product.md#privacy-and-consent): every save publishes a new
// version and the newest is the one shown; earlier ones are kept, since a case's consent names the
// version it was given under. The table's trigger empties the public page cache on each insert
// (drizzle/0014_operations_privacy.sql).

export type PrivacyNotice = typeof privacyNotices.$inferSelect

/** The notice shown now: the newest version. */
export async function currentNotice(db: Database): Promise<PrivacyNotice | undefined> {
	const [notice] = await db.select().from(privacyNotices).orderBy(desc(privacyNotices.version)).limit(1)
	return notice
}

/** One version, or undefined. */
export async function findNotice(db: Database, version: number): Promise<PrivacyNotice | undefined> {
	if (!Number.isSafeInteger(version) || version < 1 || version > 2_147_483_647) return undefined
	const [notice] = await db.select().from(privacyNotices).where(eq(privacyNotices.version, version))
	return notice
}

/** Every version, newest first, without their text. */
export function listNotices(db: Database) {
	return db
		.select({ version: privacyNotices.version, publishedAt: privacyNotices.publishedAt, publishedByName: privacyNotices.publishedByName })
		.from(privacyNotices)
		.orderBy(desc(privacyNotices.version))
}

/** The text once sanitised holds no words: nothing to publish. */
export class EmptyNoticeError extends Error {}

/** Publishes a new version from staff-written HTML (sanitised here) and returns it. */
export async function publishNotice(db: Database, body: string, by: { id: number; name: string }): Promise<PrivacyNotice> {
	const clean = sanitizeRichText(body)
	if (!clean.replace(/<[^>]*>/g, '').trim()) throw new EmptyNoticeError()
	const [notice] = await db.insert(privacyNotices).values({ body: clean, publishedBy: by.id, publishedByName: by.name }).returning()
	return notice!
}

/**
 * The first version, written on start when there is none, so /privacy and the consent step always
 * have a notice to show and name (production too, not only with demo content). One statement: a
 * second server starting at the same moment finds the row and adds nothing.
 */
export async function ensureDefaultNotice(db: Pick<Database, 'execute'>): Promise<void> {
	await db.execute(
		sql`insert into ${privacyNotices} (body, published_by_name) select ${defaultNoticeBody(getEnv().RETENTION_MONTHS)}, ${SYSTEM_NAME} where not exists (select 1 from ${privacyNotices})`,
	)
}

/** Who published the first version, as the list of versions shows it. */
export const SYSTEM_NAME = 'النظام (النص الافتراضي)'

/**
 * The default notice: what the Personal Data Protection Law asks a controller to tell before
 * collecting (who, what, why, on what basis, who sees it, where and how long it is kept, how it is
 * protected, the data subject's rights and how to use them, and where to complain). The foundation's
 * own name and contact details are shown beside it on /privacy, from its settings.
 */
export function defaultNoticeBody(retentionMonths: number): string {
	const kept = monthsCount(retentionMonths)
	return sanitizeRichText(`
<p>تحرص المؤسسة على حماية بياناتك الشخصية، وتعالجها وفق نظام حماية البيانات الشخصية في المملكة العربية السعودية ولوائحه. يوضح هذا الإشعار البيانات التي نجمعها عند تقديم طلب دعم أو التواصل معنا، ولماذا نجمعها، ومن يطّلع عليها، ومدة حفظها، وحقوقك عليها.</p>
<h2>الجهة المسؤولة عن بياناتك</h2>
<p>المؤسسة هي الجهة المسؤولة عن معالجة بياناتك الشخصية (جهة التحكم). تجد اسمها وعنوانها ووسائل التواصل معها في أعلى هذه الصفحة وفي صفحة «تواصل معنا».</p>
<h2>البيانات التي نجمعها</h2>
<ul>
<li>بيانات الهوية: الاسم الرباعي، ورقم الهوية أو الإقامة، والجنس، والجنسية، وتاريخ الميلاد.</li>
<li>بيانات التواصل: رقم الجوال، والبريد الإلكتروني، والمدينة والحي.</li>
<li>بيانات الأسرة: أفراد الأسرة الذين يعيشون مع المتقدم وأعمارهم وصلتهم به وأحوالهم.</li>
<li>البيانات المالية: الدخل الشهري ومصادره، وحالة السكن، وفي طلبات الأسر وترميم المنازل والحالات المرضية: الحساب البنكي (الآيبان) وكشف الحساب.</li>
<li>البيانات الصحية في طلب دعم حالة مرضية: نوع المرض وحالة المريض وعلاجه واحتياجاته، والتقارير الطبية.</li>
<li>المرفقات التي ترفعها، صوراً من كاميرا الجوال أو ملفات PDF: صورة الهوية، وسجل الأسرة، وإثبات السكن، وما تراه مفيداً لدراسة طلبك.</li>
<li>في طلبات الجمعيات والمؤسسات: بيانات الجهة وترخيصها وحسابها البنكي، واسم ممثلها وجواله وبريده.</li>
</ul>
<h2>لماذا نجمعها</h2>
<ul>
<li>دراسة طلبك والتحقق من أحقيته واتخاذ القرار فيه، والتواصل معك بشأنه.</li>
<li>صرف الدعم المعتمد إلى حسابك، ومتابعة ما قُدّم لك.</li>
<li>الوفاء بالالتزامات النظامية للمؤسسة، ومنها أنظمة القطاع غير الربحي ومكافحة غسل الأموال، وطلبات الجهات المختصة.</li>
</ul>
<p>لا نستخدم بياناتك لأي غرض آخر، ولا نستخدمها في التسويق.</p>
<h2>الأساس النظامي للمعالجة</h2>
<p>نعالج بياناتك لتنفيذ طلبك الذي تقدمت به، وللوفاء بالتزاماتنا النظامية. أما البيانات الصحية والبيانات البنكية (الائتمانية) فلا نجمعها إلا بموافقتك الصريحة، تطلبها منك خطوة مستقلة في نموذج الطلب قبل أقسامها. إن لم توافق أكملتَ طلبك دون هذه الأقسام، وقد يحدّ ذلك من قدرتنا على دراسة بعض أنواع الدعم أو صرفه.</p>
<h2>من يطّلع على بياناتك</h2>
<p>لا يطّلع على طلبك إلا موظفو المؤسسة المختصون بدراسة الطلبات واتخاذ القرار فيها، ويُسجَّل كل اطلاع على الطلب ومرفقاته في سجل تدقيق. لا نبيع بياناتك ولا نؤجرها ولا نشاركها مع أي جهة لأغراضها الخاصة، ولا نفصح عنها إلا بموافقتك أو حين يوجب ذلك نظام أو أمر من جهة مختصة. نرسل إليك رسائل عن طلبك وحده (رموز التحقق، وتغيّر حالته، والتذكير باستكماله)، لا رسائل ترويجية، عبر مزوّد رسائل نصية مرخّص في المملكة وعبر البريد الإلكتروني إن أعطيتنا إياه، ولا يصل إليهما إلا رقم جوالك أو بريدك ونص الرسالة.</p>
<h2>أين تُحفظ بياناتك</h2>
<p>تُحفظ بياناتك ومرفقاتك على خوادم داخل المملكة العربية السعودية، ولا تُنقل إلى خارجها.</p>
<h2>مدة الحفظ</h2>
<p>نحفظ من كل مستند ترسله ملف PDF واحداً يجمع صفحاته. أما الصور كما التقطها جوالك فلا نحتفظ بها: نعيد رسم كل صورة بعد وصولها بلحظات دون شيء مما يحمله الجوال فيها من بيانات (موقعك الجغرافي، ونوع الجهاز، ووقت الالتقاط)، ونحذف الصورة الأصلية، ثم نحذف الصفحات نفسها بعد إرسال طلبك ونُبقي المستند وحده.</p>
<p>نحتفظ بنسخة من كل رسالة نرسلها إليك عن طلبك (نصها ووقتها وهل وصلت) مع الطلب، وتُتلف معه. أما رموز التحقق فلا نحفظها نفسها، ونحذف أثرها بعد يوم.</p>
<p>نحتفظ ببيانات الطلب ومرفقاته طوال دراسته، ثم مدة ${kept} بعد إغلاقه (بعد تقديم الدعم أو الاعتذار عنه)، ثم تُتلف المرفقات والبيانات الصحية والبنكية إتلافاً آمناً. ونحتفظ بعد ذلك بما يلزم نظاماً فقط: رقم الطلب ونوعه ونتيجته وتاريخ إتلاف بياناته، والسجل المالي للدعم (قرار الصرف، والمبالغ المعتمدة والمصروفة، والصندوق، ومراجع التحويل وتواريخه) مدة لا تقل عن عشر سنوات كما توجب الأنظمة المالية للقطاع غير الربحي، دون اسمك أو بياناتك الشخصية. إلا أن يُصرف لك من أموال الزكاة: فيبقى في سجل الزكاة اسمك ورقم هويتك ومصرف الزكاة الذي صُرف لك منه، وحدها، عشر سنوات من آخر صرف، لأن السجل المالي للزكاة يلزم أن يُعرف فيه مستحقها، ثم تُتلف.</p>
<h2>حماية بياناتك</h2>
<p>نحمي بياناتك بوسائل تقنية وإدارية مناسبة: تُنقل عبر اتصال مشفّر، وتُحفظ المرفقات مشفّرة، ولا يدخل إلى النظام إلا موظفون مخوّلون بكلمة مرور وتحقق بخطوتين، ويُسجَّل كل اطلاع أو تعديل. ولا يُفتح طلبك على جهاز لم يُفتح عليه من قبل إلا برمز تحقق من 6 أرقام نرسله برسالة نصية إلى جوالك المسجل في الطلب، وكذلك الاستعلام عن طلبك، فلا يكفي رابط طلبك وحده لمن وصل إليه. ونُخطر الجهة المختصة ونُبلغك إن وقع تسرب لبياناتك يمسّ حقوقك، وفق ما يقضي به النظام.</p>
<h2>حقوقك</h2>
<ul>
<li>أن تُبلَّغ بكيفية جمع بياناتك ومعالجتها، وهو ما يوضحه هذا الإشعار.</li>
<li>أن تطّلع على بياناتك التي لدينا، وأن تحصل على نسخة منها بصيغة واضحة.</li>
<li>أن تطلب تصحيح بياناتك أو إكمالها أو تحديثها.</li>
<li>أن تطلب إتلاف بياناتك حين لا تعود لازمة لغرض جمعها، ما لم يوجب نظام حفظها.</li>
<li>أن تسحب موافقتك على معالجة بياناتك الصحية أو البنكية في أي وقت، دون أن يمسّ ذلك ما تمّ قبل سحبها.</li>
</ul>
<h2>كيف تمارس حقوقك</h2>
<p>تواصل معنا عبر <a href="/contact">صفحة تواصل معنا</a> أو بالهاتف أو البريد الإلكتروني المذكورين في أعلى هذه الصفحة، واذكر رقم طلبك إن وُجد. قد نطلب ما يثبت هويتك قبل تنفيذ طلبك حمايةً لبياناتك. نجيب عن طلبك خلال 30 يوماً من استلامه.</p>
<h2>الشكاوى</h2>
<p>إن رأيت أن بياناتك عولجت على نحو يخالف النظام، فلك أن تتقدم بشكوى إلى الهيئة السعودية للبيانات والذكاء الاصطناعي (سدايا)، الجهة المختصة بالإشراف على تطبيق نظام حماية البيانات الشخصية.</p>
<h2>تحديث هذا الإشعار</h2>
<p>قد نحدّث هذا الإشعار، ويظهر في أعلى الصفحة رقم إصداره وتاريخ نشره. تبقى موافقتك مسجّلة مع رقم الإصدار الذي أُعطيت في ظله.</p>
`)
}
