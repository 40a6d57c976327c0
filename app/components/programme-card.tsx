
const icons: Record<string, string> = {
	family: 'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM2 20c0-3.3 2.7-6 6-6s6 2.7 6 6M12 20c0-3 2-5 4-5s4 2 4 5',
	home: 'M3 11 12 4l9 7M5 10v10h14V10M10 20v-6h4v6',
	medical: 'M12 21s-8-4.5-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 6.5-8 11-8 11ZM12 9v5M9.5 11.5h5',
	food: 'M4 10h16l-2 10H6L4 10Zm3 0 3-6m7 6-3-6',
	clothing: 'M8 3 4 6l2 4 2-1v12h8V9l2 1 2-4-4-3a4 4 0 0 1-8 0Z',
	bill: 'M6 3h12v18l-3-2-3 2-3-2-3 2V3Zm3 5h6M9 12h6',
}

const colours: Record<string, string> = {
	brand: 'bg-brand-100 text-brand-800',
	gold: 'bg-gold-100 text-gold-700',
	sky: 'bg-sky-100 text-sky-900',
	rose: 'bg-rose-100 text-rose-900',
}

/** A programme as a card linking to its page (home page and /services). */
export function ProgrammeCard({ programme }: { programme: { slug: string; name: string; summary: string; icon: string; colour: string } }) {
	return (
		<a href={`/services/${programme.slug}`} className="flex h-full gap-4 rounded-xl border border-stone-200 bg-white p-5 shadow-sm hover:border-brand-600">
			<span aria-hidden="true" className={`grid size-12 shrink-0 place-items-center rounded-full ${colours[programme.colour] ?? colours.brand}`}>
				<svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
					<path d={icons[programme.icon] ?? icons.family} />
				</svg>
			</span>
			<span>
				<span className="block font-bold text-brand-900">{programme.name}</span>
				<span className="mt-1 block text-sm text-stone-700">{programme.summary}</span>
			</span>
		</a>
	)
}
