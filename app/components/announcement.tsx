import type { ImageData } from '#app/images/responsive-image.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { useNonce } from '#app/utils/nonce.tsx'
import { announcementScript } from './inline-scripts.ts'

/**
 * The home page's announcement popup. Without JavaScript it is an open <dialog> closed by its
 * form (method=dialog). A few lines of script make it modal (focus stays inside until it is
 * closed, Escape closes it) and remember the close for the rest of the visit.
 */
export function Announcement({ announcement }: { announcement: { key: string; title: string; link: string; image: ImageData } }) {
	const nonce = useNonce()
	const image = <ResponsiveImage image={announcement.image} alt={announcement.title} sizes="(min-width: 640px) 560px, 90vw" priority className="h-auto w-full rounded-lg" />
	return (
		<>
			<dialog
				id="announcement"
				data-key={announcement.key}
				open
				aria-labelledby="announcement-title"
				className="fixed inset-0 z-50 m-auto w-[min(36rem,92vw)] rounded-2xl bg-white p-4 shadow-2xl backdrop:bg-black/60"
			>
				<h2 id="announcement-title" className="sr-only">
					{announcement.title}
				</h2>
				{announcement.link ? <a href={announcement.link}>{image}</a> : image}
				<form method="dialog" className="mt-3 text-center">
					<button type="submit" className="btn-primary" autoFocus>
						إغلاق الإعلان
					</button>
				</form>
			</dialog>
			<script
				nonce={nonce}
				suppressHydrationWarning
				dangerouslySetInnerHTML={{
					__html: announcementScript,
				}}
			/>
		</>
	)
}
