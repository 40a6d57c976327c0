// Each content type is defined once (Payload's collections): the definition drives its admin list
// and form, its validation, its dashboard card and its public query, and its entries' data type is
// inferred from it (`ContentData`), so a misspelt field name fails to compile. See
// docs/product.md#content-that-staff-edit and docs/decisions/005-content-types-and-images.md.

interface FieldBase {
	name: string
	label: string
	hint?: string
	required?: boolean
	/** Kept in the entry but not shown in the generic form: another screen sets it (an album's cover, a photo's album). */
	adminHidden?: boolean
}

export type ContentField =
	| (FieldBase & {
			kind: 'text'
			maxLength?: number
			/** A URL segment: lower-case Latin letters, digits and dashes, unique within the type. */
			slug?: boolean
			/** Segments a slug may not take: a fixed page beside the slug's own (`/gallery/videos`). */
			reserved?: readonly string[]
	  })
	| (FieldBase & { kind: 'textarea'; maxLength?: number; rows?: number })
	| (FieldBase & { kind: 'richtext' })
	| (FieldBase & { kind: 'image' })
	/** A PDF to download (a certificate's scan, a report). */
	| (FieldBase & { kind: 'document' })
	/** An uploaded video file (MP4, WebM or QuickTime), streamed to storage. */
	| (FieldBase & {
			kind: 'video'
			/** An image field of the type that gets a frame of the video (ffmpeg, when installed) when left empty. */
			poster?: string
	  })
	| (FieldBase & { kind: 'number'; min?: number; max?: number })
	| (FieldBase & {
			kind: 'url'
			/** A YouTube video: any YouTube address is accepted and stored as its embed address (app/domain/embeds.ts). */
			youtube?: true
	  })
	| (FieldBase & { kind: 'date' })
	| (FieldBase & { kind: 'boolean' })
	| (FieldBase & { kind: 'select'; options: readonly { value: string; label: string }[] })

/** What a stored entry holds for a field of this kind: files are the id of their stored file, absent when none. */
type ValueOf<F extends ContentField> = F extends { kind: 'number' }
	? number
	: F extends { kind: 'boolean' }
		? boolean
		: F extends { kind: 'select'; options: readonly { value: infer V }[] }
			? V
			: F extends { kind: 'image' | 'document' | 'video' }
				? string | undefined
				: string

export interface ContentMessages {
	added: string
	updated: string
	deleted: string
	/** «please choose an image» (docs/product.md#messages). */
	imageRequired?: string
}

export interface ContentType<F extends readonly ContentField[] = readonly ContentField[]> {
	type: string
	kind: 'singleton' | 'collection'
	/** «عضو» / «الأعضاء» */
	singular: string
	plural: string
	fields: F
	/** The fields shown as columns in the admin list, in order. */
	listColumns: readonly F[number]['name'][]
	/** Admin list page size (docs/product.md#business-constants: members 5). */
	perPage: number
	/** The public page that shows it. */
	publicPath: string
	messages: ContentMessages
	/** Its card on the dashboard: what staff edit there. */
	dashboard: string
	/** Fields whose words the public search matches (Arabic-folded into `content_entries.search`). */
	searchFields?: readonly F[number]['name'][]
	/** A boolean field: entries without it ticked are hidden from visitors and marked for staff. */
	publishedField?: F[number]['name']
	/** A date field the public lists and the admin list sort by, newest first (instead of «order»). */
	dateField?: F[number]['name']
	/**
	 * How the admin list shows entries: a table of `listColumns` (default), or cards (news): the
	 * date field, the first image, the first list column as title and an excerpt of the first rich text.
	 */
	listStyle?: 'table' | 'cards'
	/** A select field the admin list is filtered by, one tab per option (a document's category). */
	filterField?: F[number]['name']
	/** The admin list takes several files at once: one entry per file, titled by its name (docs/product.md#documents-library). */
	bulkUpload?: { file: F[number]['name']; title: F[number]['name'] }
	/** Extra links on each row of the admin list, to a screen of that entry's own (an album's photos). */
	rowLinks?: readonly { label: string; path: (id: string) => string }[]
	/** At least one of these fields must have a value (a video: its file or its YouTube link); the message goes on the first. */
	oneOf?: { fields: readonly F[number]['name'][]; message: string }
}

/** Defines a content type, keeping its fields' literal names and kinds for `ContentData`. */
export function defineContentType<const F extends readonly ContentField[]>(type: ContentType<F>): ContentType<F> {
	return type
}

type AnyContentType = ContentType<readonly ContentField[]>

/** The data of an entry of type T: one key per field, typed by the field's kind. */
export type ContentData<T extends AnyContentType> = { [Field in T['fields'][number] as Field['name']]: ValueOf<Field> }

export type FileField = Extract<ContentField, { kind: 'image' | 'document' | 'video' }>

export const imageFields = (type: AnyContentType) => type.fields.filter((field) => field.kind === 'image')
export const documentFields = (type: AnyContentType) => type.fields.filter((field) => field.kind === 'document' || field.kind === 'video')
/** Fields whose value is the id of an uploaded file; their forms are multipart. */
export const fileFields = (type: AnyContentType): FileField[] => type.fields.filter((field): field is FileField => field.kind === 'image' || field.kind === 'document' || field.kind === 'video')
