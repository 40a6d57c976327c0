import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'
import { applicationDefinitions } from './forms/registry.ts'
import { sectionPages } from './site-map.ts'

/** Pages now served by a screen of their own instead of the heading-only section page. */
const served = new Set(['/visual-identity', '/services', '/organization-chart', '/certificates/registration', '/certificates/quality', '/board-members', '/committees', '/chairman-speech', '/apply', '/apply/status', ...applicationDefinitions.map((definition) => `/apply/${definition.type}`)])

export default [
	route('healthz', 'routes/healthz.ts'),
	route('logout', 'routes/logout.ts'),
	route('images/:id/:file', 'images/serve.ts'),
	route('documents/:id', 'routes/document.ts'),
	route('apply/r/:token/files/upload', 'routes/apply/upload.ts'),
	route('apply/r/:token/files/:fileId', 'routes/apply/file.ts'),
	layout('routes/public/layout.tsx', [
		index('routes/public/home.tsx'),
		route('about', 'routes/public/about.tsx'),
		route('contact', 'routes/public/contact.tsx'),
		route('services/:slug', 'routes/public/service.tsx'),
		route('login', 'routes/public/login.tsx'),
		route('services', 'routes/public/services.tsx'),
		route('visual-identity', 'routes/public/visual-identity.tsx'),
		route('board-members', 'routes/public/board-members.tsx'),
		route('organization-chart', 'routes/public/image-page.tsx', { id: 'image-organization-chart' }),
		route('certificates/registration', 'routes/public/image-page.tsx', { id: 'image-registration-certificate' }),
		route('certificates/quality', 'routes/public/image-page.tsx', { id: 'image-quality-certificate' }),
		route('jobs', 'routes/public/image-page.tsx', { id: 'image-job-ads' }),
		route('committees', 'routes/public/committees.tsx'),
		route('chairman-speech', 'routes/public/chairman-speech.tsx'),
		route('apply', 'routes/apply/index.tsx'),
		route('apply/status', 'routes/apply/status.tsx'),
		route('apply/referrer-form', 'routes/apply/referrer-form.tsx'),
		route('apply/:type', 'routes/apply/start.tsx'),
		route('apply/:type/new', 'routes/apply/new.tsx'),
		route('apply/r/:token', 'routes/apply/overview.tsx'),
		route('apply/r/:token/check', 'routes/apply/check.tsx'),
		route('apply/r/:token/done', 'routes/apply/done.tsx'),
		route('apply/r/:token/:step', 'routes/apply/step.tsx'),
		// Registered institutions' own area, apart from staff's (app/accounts).
		route('account', 'routes/account/index.tsx'),
		route('account/login', 'routes/account/login.tsx'),
		route('account/logout', 'routes/account/logout.ts'),
		route('account/cases/:reference', 'routes/account/case.ts'),
		...sectionPages
			.filter((page) => !served.has(page.path))
			.map((page) => route(page.path.slice(1), 'routes/public/section.tsx', { id: `section${page.path}` })),
		// Old site's paths answer 301 here; anything else is a 404 inside the site's frame.
		route('*', 'routes/public/not-found.tsx'),
	]),
	// The printable report has no back-office frame around it; it checks the session itself.
	route('admin/cases/:reference/print', 'routes/admin/case-print.tsx'),
	route('admin', 'routes/admin/layout.tsx', [
		index('routes/admin/dashboard.tsx'),
		route('users', 'routes/admin/users.tsx'),
		route('users/new', 'routes/admin/user-editor.tsx', { id: 'admin-user-new' }),
		route('users/:id/edit', 'routes/admin/user-editor.tsx', { id: 'admin-user-edit' }),
		route('cases', 'routes/admin/cases.tsx'),
		route('associations', 'routes/admin/cases.tsx', { id: 'admin-associations' }),
		route('cases/export/:format', 'routes/admin/cases-export.ts'),
		route('associations/export/:format', 'routes/admin/cases-export.ts', { id: 'admin-associations-export' }),
		route('cases/new', 'routes/admin/case-new.tsx'),
		route('cases/:reference', 'routes/admin/case.tsx'),
		route('cases/:reference/edit/:section', 'routes/admin/case-edit.tsx'),
		route('cases/:reference/files/:fileId', 'routes/admin/case-file.ts'),
		route('intake', 'routes/admin/intake.tsx'),
		route('foundation', 'routes/admin/foundation.tsx'),
		route('inquiries', 'routes/admin/inquiries.tsx'),
		route('inquiries/:id', 'routes/admin/inquiry.tsx'),
		route('content/:type', 'routes/admin/content-list.tsx'),
		route('content/:type/new', 'routes/admin/content-editor.tsx', { id: 'admin-content-new' }),
		route('content/:type/edit', 'routes/admin/content-editor.tsx', { id: 'admin-content-singleton' }),
		route('content/:type/:id/edit', 'routes/admin/content-editor.tsx', { id: 'admin-content-edit' }),
		route('content/:type/:id/delete', 'routes/admin/content-delete.tsx'),
		route('*', 'routes/admin/not-found.tsx'),
	]),
] satisfies RouteConfig
