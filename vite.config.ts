import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig({
	plugins: [tailwindcss(), reactRouter()],
	build: {
		// Fonts and images are served as hashed files, never inlined into CSS or JS.
		assetsInlineLimit: 0,
	},
	server: { port: 3000 },
})
