import { PageTitle } from '#app/components/forms.tsx'

// The referrer form (docs/product.md#needy-families, 1-5): printed, filled in and signed by the tribe sheikh, the village head
// or the mosque imam, then attached to the application.

const lines = ['اسم رب الأسرة', 'رقم هوية رب الأسرة', 'اسم المعرّف', 'صفة المعرّف (شيخ القبيلة / عمدة الحي / إمام المسجد)', 'رقم جوال المعرّف', 'العنوان الوطني للمعرّف']

export default function ReferrerForm() {
	return (
		<div className="mx-auto max-w-3xl bg-white px-6 py-8 print:p-0">
			<PageTitle title="نموذج المعرّف" description="نموذج تعريف بأسرة يطبعه المعرّف ويوقّعه ويرفقه بطلب دعم الأسر المحتاجة." />
			<p className="text-sm text-stone-600 print:hidden">اطبع هذه الصفحة من قائمة المتصفح (طباعة)، واطلب من المعرّف تعبئتها وتوقيعها وختمها، ثم صوّرها بكاميرا الجوال وأرفقها مع طلبك.</p>
			<h1 className="mt-4 text-center text-2xl font-bold">مؤسسة عطاء الخيرية — نموذج تعريف بأسرة</h1>
			<p className="mt-6 leading-9">
				أشهد أنا الموقّع أدناه بأنني أعرف الأسرة المذكورة معرفة شخصية، وأن المعلومات التي قدمتها لمؤسسة عطاء الخيرية عن حالتها صحيحة بحسب علمي.
			</p>
			<dl className="mt-6 space-y-6">
				{lines.map((line) => (
					<div key={line} className="flex items-end gap-3">
						<dt className="shrink-0 font-semibold">{line}:</dt>
						<dd className="flex-1 border-b border-dotted border-stone-500">&nbsp;</dd>
					</div>
				))}
			</dl>
			<div className="mt-12 grid grid-cols-3 gap-6 text-center">
				<p className="border-t border-stone-500 pt-2">التوقيع</p>
				<p className="border-t border-stone-500 pt-2">الختم</p>
				<p className="border-t border-stone-500 pt-2">التاريخ</p>
			</div>
		</div>
	)
}
