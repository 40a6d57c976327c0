// Each fund's balance beside an approval (docs/product.md#money-in): the committee sees what a fund
// still holds before choosing it; the server refuses an approval beyond a zakat fund's balance.

export interface FundBalanceLine {
	id: number
	label: string
	/** Formatted: received, less committed, less paid. */
	balance: string
}

export function FundBalances({ funds, className = '' }: { funds: readonly FundBalanceLine[]; className?: string }) {
	return (
		<div className={`rounded-lg border border-stone-200 bg-stone-50 p-3 text-sm ${className}`}>
			<p id="fund-balances" className="font-semibold">
				أرصدة الصناديق (المقبوض مطروحاً منه المعتمد والمصروف)
			</p>
			<ul aria-labelledby="fund-balances" className="mt-1 space-y-1">
				{funds.map((fund) => (
					<li key={fund.id}>
						{fund.label}: <span className="font-semibold">{fund.balance}</span>
					</li>
				))}
			</ul>
		</div>
	)
}
