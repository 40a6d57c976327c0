import { useNonce } from '#app/utils/nonce.tsx'

// The printable pages' «طباعة» button (the case report, a meeting's minutes): hidden until a few
// lines of script with the page's nonce show it and make it print (the CSP allows it through the
// nonce, never an onclick); no client bundle is needed.
const printScript = `(()=>{const b=document.getElementById('print-report');if(!b)return;b.hidden=false;b.addEventListener('click',()=>window.print())})()`

export function PrintButton() {
	const nonce = useNonce()
	return (
		<>
			<button id="print-report" type="button" hidden className="btn-primary ms-auto">
				طباعة
			</button>
			<script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: printScript }} />
		</>
	)
}
