import { createRequire } from 'node:module'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import fontSubset from './vite/font-subset.ts'

// React Router's package exports resolve to its development build in Node and in the browser alike
// (remix-run/react-router#12532): a build points both at its production build, and bundles it into
// the server with the two packages that load it, so that the server runs one copy.
const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production')

export default defineConfig(({ command }) => ({
	plugins: [fontSubset(), tailwindcss(), reactRouter()],
	...(command === 'build'
		? {
				resolve: {
					alias: [
						{ find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
						{ find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
					],
				},
				// With React Router's own versions of what it imports (cookie 1.x; the project root has Express's 0.7).
				ssr: { noExternal: ['react-router', '@react-router/express', '@react-router/node', 'cookie', 'set-cookie-parser'] },
			}
		: {}),
	build: {
		// Fonts and images are served as hashed files, never inlined into CSS or JS.
		assetsInlineLimit: 0,
	},
	server: { port: 3000 },
}))
