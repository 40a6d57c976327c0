/** The foundation's mark: an open hand beneath a crescent-shaped leaf, in the brand colours. */
export function LogoMark({ className }: { className?: string }) {
	return (
		<svg viewBox="0 0 48 48" className={className} aria-hidden="true" focusable="false">
			<circle cx="24" cy="24" r="23" fill="#0f6251" />
			<path d="M24 9c6 3.5 8.5 9 6.5 15-1.7-3.2-4.2-5.4-6.5-6.5-2.3 1.1-4.8 3.3-6.5 6.5C15.5 18 18 12.5 24 9Z" fill="#c08a2b" />
			<path
				d="M11 27.5c2.5-.8 4.6.3 6.2 2.2l2.6 3.1h6.7c1.3 0 2.2.9 2.2 2s-.9 2-2.2 2h-5.3m7.3-.4 6.4-4.6c1.1-.8 2.6-.6 3.4.5.8 1 .6 2.4-.4 3.2L31 42H17l-6-4.5"
				fill="none"
				stroke="#fff"
				strokeWidth="2.2"
				strokeLinecap="round"
				strokeLinejoin="round"
			/>
		</svg>
	)
}
