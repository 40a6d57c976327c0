// «الرسائل» on the staff case view (app/routes/admin/case.tsx): every message the foundation sent
// about the case, with what became of it, and «إعادة الإرسال» for one that could not be sent
// (docs/product.md#messages). A plain POST form: it works without JavaScript.
import { Form, useNavigation } from 'react-router'
import { ErrorList } from '#app/components/forms.tsx'
import type { MessageView } from '#app/notify/message-view.ts'
import { Panel, type ActionErrors } from './+case-parts.tsx'

const stateStyles: Record<MessageView['state'], string> = {
	sent: 'text-emerald-800',
	pending: 'text-amber-800',
	failed: 'text-red-800',
}

export function CaseMessages({ messages, canResend, errors }: { messages: readonly MessageView[]; canResend: boolean; errors?: ActionErrors }) {
	const busy = useNavigation().state !== 'idle'
	return (
		<Panel title="الرسائل" id="sent-messages" className="mt-6">
			<ErrorList errors={errors?.['']} />
			{messages.length === 0 ? (
				<p className="mt-2 text-stone-700">لم تُرسل رسائل عن هذا الطلب بعد.</p>
			) : (
				<ol className="mt-2 divide-y divide-stone-200 text-sm">
					{messages.map((message) => (
						<li key={message.id} className="py-2">
							<p>
								<span className="font-semibold">{message.label}</span> — {message.channel} إلى{' '}
								<bdi dir="ltr" className="tracking-wide">
									{message.recipient}
								</bdi>
							</p>
							<p className="text-xs text-stone-600">{message.at}</p>
							<p className={`mt-1 font-semibold ${stateStyles[message.state]}`}>{message.stateText}</p>
							{message.technical ? (
								<details className="text-xs text-stone-600">
									<summary className="inline-flex min-h-11 cursor-pointer items-center">نص مزود الخدمة كما أرسله (للدعم الفني)</summary>
									<bdi dir="ltr">{message.technical}</bdi>
								</details>
							) : null}
							{canResend && message.canResend ? (
								<Form method="post" className="mt-1">
									<input type="hidden" name="intent" value="resend" />
									<input type="hidden" name="messageId" value={message.id} />
									<button type="submit" disabled={busy} className="btn-secondary min-h-11">
										إعادة الإرسال<span className="sr-only"> ({message.label}، {message.channel})</span>
									</button>
								</Form>
							) : null}
						</li>
					))}
				</ol>
			)}
		</Panel>
	)
}
