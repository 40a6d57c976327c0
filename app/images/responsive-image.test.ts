import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ResponsiveImage, toImageData, type ImageData } from './responsive-image.tsx'

const id = '3f2b8c1e-5d4a-4b6f-9e2d-1a7c0b9e8f10'
const row = {
	id,
	originalName: 'x.jpg',
	width: 2000,
	height: 1200,
	alt: 'متطوعون يوزعون السلال',
	createdAt: new Date(),
	createdBy: null,
	// Out of order, as nothing promises the order.
	variants: [1600, 320, 1024, 640].flatMap((width) => [
		{ format: 'webp' as const, width, key: 'a'.repeat(64), size: 1 },
		{ format: 'avif' as const, width, key: 'b'.repeat(64), size: 1 },
	]),
}

const render = (props: Parameters<typeof ResponsiveImage>[0]) => renderToStaticMarkup(createElement(ResponsiveImage, props))

describe('ResponsiveImage', () => {
	test('toImageData keeps what a page needs, without storage keys', () => {
		const image = toImageData(row)
		expect(Object.keys(image).sort()).toEqual(['alt', 'height', 'id', 'variants', 'width'])
		expect(JSON.stringify(image)).not.toContain('a'.repeat(64))
		expect(JSON.parse(JSON.stringify(image))).toEqual(image)
	})

	test('offers AVIF then WebP at every width, with the box size reserved and lazy loading', () => {
		const html = render({ image: toImageData(row), sizes: '(min-width: 1024px) 50vw, 100vw', className: 'rounded' })
		const srcset = (format: string) =>
			[320, 640, 1024, 1600].map((width) => `/images/${id}/${width}.${format} ${width}w`).join(', ')
		expect(html).toBe(
			'<picture>' +
				`<source type="image/avif" srcSet="${srcset('avif')}" sizes="(min-width: 1024px) 50vw, 100vw"/>` +
				`<source type="image/webp" srcSet="${srcset('webp')}" sizes="(min-width: 1024px) 50vw, 100vw"/>` +
				`<img src="/images/${id}/1600.webp" width="2000" height="1200" alt="متطوعون يوزعون السلال" loading="lazy" decoding="async" class="rounded"/>` +
				'</picture>',
		)
		expect(html.indexOf('image/avif')).toBeLessThan(html.indexOf('image/webp'))
	})

	test('a priority image loads eagerly and first; alt can be overridden', () => {
		const image: ImageData = { id, width: 200, height: 150, alt: 'x', variants: [{ format: 'webp', width: 200 }, { format: 'avif', width: 200 }] }
		const html = render({ image, sizes: '100vw', priority: true, alt: '' })
		expect(html).toContain('loading="eager"')
		expect(html).toContain('fetchPriority="high"')
		expect(html).toContain('alt=""')
		expect(html).toContain(`src="/images/${id}/200.webp"`)
		expect(render({ image, sizes: '100vw' })).not.toContain('fetchPriority')
	})
})
