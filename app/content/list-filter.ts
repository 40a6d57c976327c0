import type { ContentField, ContentType } from './definition.ts'

// The admin list of a type with a `filterField` (the documents library by category): one tab per
// option of that select field, the choice kept in `?<field>=<value>` so paging and «add» keep it.

type SelectField = Extract<ContentField, { kind: 'select' }>

/** The select field a type's admin list is filtered by, if any. */
export function filterFieldOf(type: ContentType): SelectField | undefined {
	const field = type.fields.find((candidate) => candidate.name === type.filterField)
	return field?.kind === 'select' ? field : undefined
}

/** The option asked for in the URL, or '' for «all» (an unknown value is «all» too). */
export function filterValue(type: ContentType, url: URL): string {
	const field = filterFieldOf(type)
	const value = field ? (url.searchParams.get(field.name) ?? '') : ''
	return field?.options.some((option) => option.value === value) ? value : ''
}

/** A list path filtered by `value` ('' for all). */
export function filteredListPath(type: ContentType, value: string): string {
	const field = filterFieldOf(type)
	return field && value ? `/admin/content/${type.type}?${new URLSearchParams({ [field.name]: value })}` : `/admin/content/${type.type}`
}

/** What a list cell shows: a select's label rather than its stored value. */
export function cellText(field: ContentField | undefined, value: unknown): string {
	if (field?.kind === 'select') return field.options.find((option) => option.value === value)?.label ?? String(value ?? '')
	return String(value ?? '')
}

/** The bulk upload form's `<input type=file multiple>` (app/content/bulk-upload.server.ts). */
export const BULK_INPUT = 'files'
/** Files one bulk upload may carry; more are refused as a whole, not silently cut. */
export const BULK_MAX_FILES = 20
