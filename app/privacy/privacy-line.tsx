import { Link } from 'react-router'

/** The sentence at the start of every application that points to the privacy notice (PDPL: a notice before collection). */
export function PrivacyLine({ className = 'mt-3' }: { className?: string }) {
	return (
		<p className={`${className} text-stone-700`}>
			نستخدم بياناتك لدراسة طلبك وصرف الدعم فقط، ولا يطّلع عليها إلا موظفو المؤسسة المختصون، كما يوضح{' '}
			<Link to="/privacy" className="link">
				إشعار الخصوصية
			</Link>
			.
		</p>
	)
}
