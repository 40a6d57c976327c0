import { documentCategories } from '#app/content/types.ts'

/**
 * The routes whose pages are the same for every visitor without a session, and so may be kept by
 * the page cache (app/cache/page-cache.server.ts), by route id. A page that ships script to hydrate
 * is never kept, listed or not (its script needs a nonce of its own). Left out on purpose:
 * - routes/public/not-found: any path reaches it, and the cache must not grow with them;
 * - routes/apply/r/* and routes/account/*: an applicant's or an institution's own case;
 * - routes/apply/new: it starts an application (a POST; its page hydrates).
 */
export const cacheableRouteIds: ReadonlySet<string> = new Set([
	'routes/public/home',
	'routes/public/about',
	'routes/public/contact',
	'routes/public/services',
	'routes/public/service',
	'routes/public/login',
	'routes/public/visual-identity',
	'routes/public/board-members',
	'image-organization-chart',
	'image-registration-certificate',
	'image-quality-certificate',
	'image-job-ads',
	'routes/public/committees',
	...documentCategories.map((category) => `documents${category.path}`),
	'routes/public/basic-regulation',
	'routes/public/news',
	// Its visits are counted from the cache's hits too (VIEW_HEADER, app/content/views.server.ts).
	'routes/public/news-detail',
	'routes/public/gallery',
	'routes/public/videos',
	'routes/public/album',
	'routes/public/chairman-speech',
	// Its figures change with a payment recorded: the aid ledger's trigger raises the content version (drizzle/0025).
	'routes/public/impact',
	'routes/public/privacy',
	'routes/apply/index',
	'routes/apply/status',
	'routes/apply/referrer-form',
	'routes/apply/start',
	'routes/account/login',
])
