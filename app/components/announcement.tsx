import type { ImageData } from '#app/images/responsive-image.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { useNonce } from '#app/utils/nonce.tsx'

/**
 * The home page's announcement popup. Without JavaScript it is an open <dialog> closed by its
 * form (method=dialog). A few lines of script make it modal (focus stays inside until it is
 * closed, Escape closes it) and remember the close for the rest of the visit.
 */
export function Announcement({ announcement }: { announcement: { key: string; title: string; link: string; image: ImageData } }) {
	const nonce = useNonce()
	const storageKey = `ataa-announcement-${announcement.key}`
	const image = <ResponsiveImage image={announcement.image} alt={announcement.title} sizes="(min-width: 640px) 560px, 90vw" priority className="h-auto w-full rounded-lg" />
	return (
		<>
			<dialog
				id="announcement"
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
					__html: `(()=>{const d=document.getElementById('announcement');if(!d)return;const k=${JSON.stringify(storageKey)};try{if(sessionStorage.getItem(k)){d.close();return}}catch(e){}d.close();d.showModal();d.addEventListener('close',()=>{try{sessionStorage.setItem(k,'1')}catch(e){}})})()`,
				}}
			/>
		</>
	)
}
