import { useEffect, useId, useRef, useState, type ClipboardEvent, type RefCallback } from 'react'
import { ErrorList } from '#app/components/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'

// A small editor for staff-written rich text. Without JavaScript it is a plain textarea of HTML,
// so the form still works; either way the server sanitises what is posted (sanitizeRichText).
// document.execCommand is deprecated but works in every browser and needs no dependency.

/** Links the editor accepts: the same schemes the server keeps, and paths on this site. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:|tel:|\/(?![/\\]))/i

const ACTIONS = [
	{ id: 'bold', label: 'عريض', className: 'font-bold', toggle: true },
	{ id: 'italic', label: 'مائل', className: 'italic', toggle: true },
	{ id: 'h2', label: 'عنوان', className: 'font-bold', toggle: true },
	{ id: 'h3', label: 'عنوان فرعي', className: 'font-semibold', toggle: true },
	{ id: 'ul', label: 'قائمة نقطية', icon: '•', toggle: true },
	{ id: 'ol', label: 'قائمة مرقمة', icon: '1.', toggle: true },
	{ id: 'link', label: 'رابط', className: 'underline' },
	{ id: 'clear', label: 'إزالة التنسيق' },
] as const satisfies readonly { id: string; label: string; className?: string; icon?: string; toggle?: boolean }[]

type ActionId = (typeof ACTIONS)[number]['id']
type ActiveState = Partial<Record<ActionId, boolean>>

// Headings, lists and links inside the editor look roughly as they will on the page.
const CONTENT_STYLES =
	'[&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:text-lg [&_h3]:font-bold [&_p]:my-2 [&_ul]:list-disc [&_ul]:ps-6 [&_ol]:list-decimal [&_ol]:ps-6 [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-s-4 [&_blockquote]:border-stone-300 [&_blockquote]:ps-3'

const BUTTON_STYLES =
	'inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md border border-stone-300 bg-white px-3 text-sm hover:bg-stone-100 aria-pressed:border-brand-700 aria-pressed:bg-brand-100'

const blockName = () => document.queryCommandValue('formatBlock').toLowerCase()
const isOn = (command: string) => document.queryCommandState(command)

function readActive(): ActiveState {
	const block = blockName()
	return { bold: isOn('bold'), italic: isOn('italic'), h2: block === 'h2', h3: block === 'h3', ul: isOn('insertUnorderedList'), ol: isOn('insertOrderedList') }
}

// A rejected form may echo back unsanitised input. A DOMParser document is inert (nothing runs or
// loads there), so it is cleaned there of what could run once shown in the live page.
function toEditableHtml(html: string): string {
	const body = new DOMParser().parseFromString(html, 'text/html').body
	body.querySelectorAll('script,style,iframe,frame,object,embed,svg,math,img,picture,video,audio,link,meta,base,form,template,noscript').forEach((element) => element.remove())
	for (const element of body.querySelectorAll('*')) {
		for (const { name, value } of [...element.attributes]) {
			if (!(name === 'title' || name === 'dir' || (name === 'href' && SAFE_LINK.test(value.trim())))) element.removeAttribute(name)
		}
	}
	return body.innerHTML
}

interface RichTextEditorProps {
	name: string
	label: string
	hint?: string
	defaultValue: string
	errors?: readonly string[] | null
	id?: string
}

export function RichTextEditor({ name, label, hint, defaultValue, errors, id: givenId }: RichTextEditorProps) {
	const fallbackId = useId()
	const id = givenId ?? fallbackId
	const labelId = `${id}-label`
	const hintId = hint ? `${id}-hint` : undefined
	const errorId = errors?.some(Boolean) ? `${id}-error` : undefined
	const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
	const enhanced = useHydrated()
	const editorRef = useRef<HTMLDivElement>(null)
	const hiddenRef = useRef<HTMLInputElement>(null)
	const startValue = useRef(defaultValue)
	const savedRange = useRef<Range | null>(null)
	const [active, setActive] = useState<ActiveState>({})

	// Whatever was typed into the textarea before hydration carries over into the editor.
	const keepTyped: RefCallback<HTMLTextAreaElement> = (textarea) => () => {
		if (textarea) startValue.current = textarea.value
	}

	function sync() {
		const editor = editorRef.current
		// An emptied editor still holds <br> or <p><br></p>; post nothing so "required" checks work.
		if (editor && hiddenRef.current) hiddenRef.current.value = editor.textContent?.trim() ? editor.innerHTML : ''
	}

	useEffect(() => {
		const editor = editorRef.current
		if (!enhanced || !editor) return
		// An empty editor starts with a paragraph, so the first line typed is a <p> like the rest.
		editor.innerHTML = toEditableHtml(startValue.current).trim() || '<p><br></p>'
		sync()
		// New lines as <p> (Chrome would write <div>), and <b>/<i> rather than style="font-weight".
		document.execCommand('defaultParagraphSeparator', false, 'p')
		document.execCommand('styleWithCSS', false, 'false')
		// The toolbar takes focus from the editor; remember where the selection was.
		const onSelectionChange = () => {
			const selection = document.getSelection()
			if (!selection?.rangeCount || !editor.contains(selection.anchorNode)) return
			savedRange.current = selection.getRangeAt(0).cloneRange()
			setActive(readActive())
		}
		document.addEventListener('selectionchange', onSelectionChange)
		return () => document.removeEventListener('selectionchange', onSelectionChange)
	}, [enhanced])

	function run(action: ActionId) {
		const editor = editorRef.current
		if (!editor) return
		let url = ''
		if (action === 'link') {
			url = window.prompt('أدخل عنوان الرابط، يبدأ بـ https:// أو mailto: أو tel: أو / لصفحة في الموقع:', 'https://')?.trim() ?? ''
			if (!SAFE_LINK.test(url)) return
		}
		editor.focus()
		const selection = document.getSelection()
		if (selection && savedRange.current) {
			selection.removeAllRanges()
			selection.addRange(savedRange.current)
		}
		const block = blockName()
		if (action === 'bold' || action === 'italic') document.execCommand(action)
		else if (action === 'h2' || action === 'h3') document.execCommand('formatBlock', false, block === action ? '<p>' : `<${action}>`)
		else if (action === 'ul') document.execCommand('insertUnorderedList')
		else if (action === 'ol') document.execCommand('insertOrderedList')
		else if (action === 'link' && selection?.isCollapsed) {
			// Nothing selected: insert the address itself as the link text (outerHTML escapes it).
			document.execCommand('insertHTML', false, Object.assign(document.createElement('a'), { href: url, textContent: url }).outerHTML)
		} else if (action === 'link') document.execCommand('createLink', false, url)
		else {
			document.execCommand('removeFormat')
			document.execCommand('unlink')
			if (/^h\d$/.test(block)) document.execCommand('formatBlock', false, '<p>')
		}
		sync()
		setActive(readActive())
	}

	function onPaste(event: ClipboardEvent<HTMLDivElement>) {
		// Only the words: markup from Word or other sites brings fonts, colours and foreign tags.
		event.preventDefault()
		document.execCommand('insertText', false, event.clipboardData.getData('text/plain'))
	}

	return (
		<div>
			<label id={labelId} htmlFor={enhanced ? undefined : id} onClick={() => editorRef.current?.focus()} className="block font-semibold">
				{label}
			</label>
			{hint ? (
				<p id={hintId} className="text-sm text-stone-600">
					{hint}
				</p>
			) : null}
			<ErrorList id={errorId} errors={errors} />
			{enhanced ? (
				<>
					<div role="toolbar" aria-label="تنسيق النص" aria-controls={id} className="mt-1 flex flex-wrap gap-1">
						{ACTIONS.map((action) => (
							<button
								key={action.id}
								type="button"
								aria-pressed={'toggle' in action ? Boolean(active[action.id]) : undefined}
								// Keeps focus and selection in the editor for mouse users.
								onMouseDown={(event) => event.preventDefault()}
								onClick={() => run(action.id)}
								className={`${BUTTON_STYLES} ${'className' in action ? action.className : ''}`}
							>
								{'icon' in action ? <span aria-hidden="true">{action.icon}</span> : null}
								{action.label}
							</button>
						))}
					</div>
					<div
						ref={editorRef}
						id={id}
						contentEditable
						dir="rtl"
						role="textbox"
						aria-multiline="true"
						aria-labelledby={labelId}
						aria-describedby={describedBy}
						aria-invalid={errorId ? true : undefined}
						onInput={sync}
						onPaste={onPaste}
						className={`field-input mt-1 min-h-48 ${CONTENT_STYLES}`}
					/>
					<input ref={hiddenRef} type="hidden" name={name} />
				</>
			) : (
				<textarea
					ref={keepTyped}
					id={id}
					name={name}
					defaultValue={defaultValue}
					rows={12}
					dir="rtl"
					aria-invalid={errorId ? true : undefined}
					aria-describedby={describedBy}
					className="field-input mt-1"
				/>
			)}
		</div>
	)
}
