// Paths of the old website, each answered with a 301 to its new home.
// Paths that differ from a new path only in letter case (/News, /Contact,
// /Gallery) or not at all (/policies, /) are deliberately absent: the router
// serves them directly, and a redirect here would loop.

export interface LegacyRoute {
	from: string
	to: string
}

const applyStatus = '/apply/status'

export const legacyRoutes: readonly LegacyRoute[] = [
	// Public pages
	{ from: '/CEOSpeech', to: '/chairman-speech' },
	{ from: '/BasicRegulation', to: '/basic-regulation' },
	{ from: '/Members', to: '/board-members' },
	{ from: '/OrganizationChart', to: '/organization-chart' },
	{ from: '/YearlyReports', to: '/reports/yearly' },
	{ from: '/news/deatils/:id', to: '/news/:id' },
	{ from: '/registration-certificate', to: '/certificates/registration' },
	{ from: '/IZO-certificate', to: '/certificates/quality' },
	{ from: '/gallery-vid', to: '/gallery/videos' },
	{ from: '/Governance2022', to: '/governance/2022' },
	{ from: '/Governance2023', to: '/governance/2023' },
	{ from: '/Governance2024', to: '/governance/2024' },
	{ from: '/ServicesComponent', to: '/services' },
	{ from: '/SubServices', to: '/services' },
	{ from: '/CommitteesComponent', to: '/committees' },
	{ from: '/FinancialComponent', to: '/reports/financial' },
	{ from: '/Project2022Component', to: '/projects/2022' },
	{ from: '/WorkshopsReports', to: '/reports/workshops' },

	// Accounts
	{ from: '/user/login', to: '/login' },
	{ from: '/user/register', to: '/admin/users' },
	{ from: '/user/register/:id', to: '/admin/users' },

	// Applications. A case code in an old link must never open a case, so
	// every form with an id goes to the status lookup instead.
	{ from: '/Customer/New-Registration/step1', to: '/apply/institution-registration' },
	{ from: '/Customer/New-Registration/step2', to: '/apply/institution-registration' },
	{ from: '/Customer/New-Registration/step3', to: '/apply/institution-registration' },
	{ from: '/Customer/New-Registration/step4', to: '/apply/institution-registration' },
	{ from: '/Customer/InstitutionBenefitForm', to: '/apply/medical-case' },
	{ from: '/Customer/InstitutionBenefitForm/:id', to: applyStatus },
	{ from: '/Customer/CheckResultComponent', to: applyStatus },
	{ from: '/Customer/AssociationSupport', to: '/apply/association-support' },
	{ from: '/Customer/AssociationSupport/:id', to: applyStatus },
	{ from: '/Customer/RestorationHomeForm', to: '/apply/home-restoration' },
	{ from: '/Customer/RestorationHomeForm/:id', to: applyStatus },
	{ from: '/Customer/SupportNeedyFamilies', to: '/apply/needy-families' },
	{ from: '/Customer/SupportNeedyFamilies/:id', to: applyStatus },
	{ from: '/Customer/HealthAssociationsSupport', to: '/apply/health-association-support' },
	{ from: '/Customer/HealthAssociationsSupport/:id', to: applyStatus },
	{ from: '/Customer/HA_SupportType', to: '/apply/health-association-support' },
	{ from: '/Customer/Project2023', to: '/projects/2023' },
	{ from: '/Customer/related-person', to: '/apply' },

	// Back office
	{ from: '/backend/home', to: '/admin' },
	{ from: '/backend/user/list', to: '/admin/users' },
	{ from: '/backend/news/viewlist', to: '/admin/content/news' },
	{ from: '/backend/news/add', to: '/admin/content/news/new' },
	// Old numeric ids do not survive the move (as for members below): the list, where the item is found by title.
	{ from: '/backend/news/add/:id', to: '/admin/content/news' },
	{ from: '/backend/news/update/:id', to: '/admin/content/news' },
	{ from: '/backend/company/update', to: '/admin/foundation' },
	{ from: '/backend/member/add', to: '/admin/content/members/new' },
	// The old numeric ids do not survive the move: the list, where the member is found by name.
	{ from: '/backend/member/update/:id', to: '/admin/content/members' },
	{ from: '/backend/member/list', to: '/admin/content/members' },
	{ from: '/backend/CEOSpeach/update', to: '/admin/content/chairman-speech/edit' },
	{ from: '/backend/gallery/update', to: '/admin/content/albums' },
	{ from: '/backend/gallery/update/:id', to: '/admin/content/albums' },
	{ from: '/backend/YearReport', to: '/admin/content/documents?category=yearly' },
	{ from: '/backend/OrganizationChart/update', to: '/admin/content/organization-chart/edit' },
	{ from: '/backend/galleryVideo/add', to: '/admin/content/videos/new' },
	{ from: '/backend/BeneficiariesRequests', to: '/admin/cases' },
	{ from: '/backend/AssociationRequests', to: '/admin/associations' },
	{ from: '/Report/SupportNeedyFamilies/:id', to: '/admin/cases' },
	{ from: '/Report/AssociationSupport_Rp/:id', to: '/admin/cases' },
]

// Where any other old back-office page lands.
const backendFallback = '/admin'

type Segment = { param: string } | { literal: string }

interface CompiledRoute {
	segments: Segment[]
	to: string
}

function splitPath(pathname: string): string[] {
	// One trailing slash is tolerated; '/' itself has no segments.
	const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
	return trimmed === '/' ? [] : trimmed.slice(1).split('/')
}

function safeDecode(segment: string): string | null {
	try {
		return decodeURIComponent(segment)
	} catch {
		return null
	}
}

const compiled: CompiledRoute[] = legacyRoutes.map(({ from, to }) => ({
	segments: splitPath(from).map((segment) =>
		segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment.toLowerCase() },
	),
	to,
}))

function match(route: CompiledRoute, segments: string[]): Map<string, string> | null {
	if (route.segments.length !== segments.length) return null
	const params = new Map<string, string>()
	for (const [index, expected] of route.segments.entries()) {
		const actual = segments[index] ?? ''
		if ('param' in expected) {
			if (actual === '') return null
			params.set(expected.param, actual)
		} else if ((safeDecode(actual) ?? actual).toLowerCase() !== expected.literal) {
			return null
		}
	}
	return params
}

function fill(to: string, params: Map<string, string>): string {
	// encodeURIComponent escapes '/', so a value can never add a segment,
	// form '//' or turn the result into an absolute URL.
	return to.replace(/:(\w+)/g, (placeholder, name: string) => {
		const raw = params.get(name)
		if (raw === undefined) return placeholder
		return encodeURIComponent(safeDecode(raw) ?? raw)
	})
}

/** The new path for an old website path, or null when `pathname` is not an old path. */
export function legacyRedirect(pathname: string): string | null {
	if (!pathname.startsWith('/')) return null
	const segments = splitPath(pathname)
	for (const route of compiled) {
		const params = match(route, segments)
		if (params) return fill(route.to, params)
	}
	if ((safeDecode(segments[0] ?? '') ?? '').toLowerCase() === 'backend') return backendFallback
	return null
}

/** Where an old URL goes, its query kept (merged after a destination's own, such as `?category=yearly`). */
export function legacyLocation(url: URL): string | null {
	const target = legacyRedirect(url.pathname)
	if (!target || !url.search) return target
	return target.includes('?') ? `${target}&${url.search.slice(1)}` : `${target}${url.search}`
}
