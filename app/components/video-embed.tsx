/**
 * A YouTube video that loads nothing from YouTube until the visitor opens it: a closed <details>
 * renders no frame, so the page itself makes no third-party request (privacy-enhanced domain).
 */
export function VideoEmbed({ url, caption }: { url: string; caption: string }) {
	return (
		<details className="group overflow-hidden rounded-xl border border-stone-200 bg-white">
			<summary className="relative flex aspect-video items-center justify-center bg-gradient-to-br from-brand-700 to-brand-900 text-white">
				<span className="flex flex-col items-center gap-2 p-4 text-center">
					<svg viewBox="0 0 48 48" className="size-14" aria-hidden="true">
						<circle cx="24" cy="24" r="22" fill="currentColor" opacity=".2" />
						<path d="M19 15v18l15-9z" fill="currentColor" />
					</svg>
					<span className="font-semibold">تشغيل الفيديو: {caption || 'فيديو'}</span>
					<span className="text-xs text-brand-100">يُحمَّل من يوتيوب عند التشغيل</span>
				</span>
			</summary>
			<iframe
				src={url}
				title={caption || 'فيديو'}
				loading="lazy"
				allow="encrypted-media; picture-in-picture; fullscreen"
				referrerPolicy="strict-origin-when-cross-origin"
				className="aspect-video w-full border-0"
			/>
		</details>
	)
}
