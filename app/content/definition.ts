// Each content type is defined once (Payload's collections): the definition drives its admin list
// and form, its validation and its public query. See docs/product.md#content-that-staff-edit and
// docs/decisions/005-content-types-and-images.md.

interface FieldBase {
	name: string
	label: string
	hint?: string
	required?: boolean
}

export type ContentField =
	| (FieldBase & {
			kind: 'text'
			maxLength?: number
			/** A URL segment: lower-case Latin letters, digits and dashes, unique within the type. */
			slug?: boolean
	  })
	| (FieldBase & { kind: 'textarea'; maxLength?: number; rows?: number })
	| (FieldBase & { kind: 'richtext' })
	| (FieldBase & { kind: 'image' })
	/** A PDF to download (a certificate's scan, a guide). */
	| (FieldBase & { kind: 'document' })
	| (FieldBase & { kind: 'number'; min?: number; max?: number })
	| (FieldBase & { kind: 'url'; hosts?: readonly string[] })
	| (FieldBase & { kind: 'date' })
	| (FieldBase & { kind: 'boolean' })
	| (FieldBase & { kind: 'select'; options: readonly { value: string; label: string }[] })

export interface ContentMessages {
	added: string
	updated: string
	deleted: string
	/** «please choose an image» (docs/product.md#messages). */
	imageRequired?: string
}

export interface ContentType {
	type: string
	kind: 'singleton' | 'collection'
	/** «عضو» / «الأعضاء» */
	singular: string
	plural: string
	fields: readonly ContentField[]
	/** The fields shown as columns in the admin list, in order. */
	listColumns: readonly string[]
	/** Admin list page size (docs/product.md#business-constants: members 5). */
	perPage: number
	/** The public page that shows it. */
	publicPath: string
	messages: ContentMessages
}

export type FileField = Extract<ContentField, { kind: 'image' | 'document' }>

export const imageFields = (type: ContentType) => type.fields.filter((field) => field.kind === 'image')
export const documentFields = (type: ContentType) => type.fields.filter((field) => field.kind === 'document')
/** Fields whose value is the id of an uploaded file; their forms are multipart. */
export const fileFields = (type: ContentType): FileField[] => type.fields.filter((field): field is FileField => field.kind === 'image' || field.kind === 'document')
