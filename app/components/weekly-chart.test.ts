import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { describeWeeks, shortWeekLabel, WeeklyChart, type WeekCount } from './weekly-chart.tsx'

// Twelve Saturdays, oldest first, as newCasesPerWeek gives them.
function weeksFrom(counts: readonly number[]): WeekCount[] {
	const first = Date.UTC(2026, 8, 5) // Saturday 5 September 2026
	return counts.map((count, index) => ({ start: new Date(first + index * 7 * 86_400_000).toISOString().slice(0, 10), count }))
}

function render(weeks: readonly WeekCount[]): string {
	return renderToString(createElement(WeeklyChart, { weeks }))
}

/** The text of the element with this id (title, desc). */
function textOf(html: string, id: string): string {
	const match = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)
	return match?.[1] ?? ''
}

function decode(text: string): string {
	return text.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&')
}

describe('WeeklyChart', () => {
	const counts = [0, 2, 5, 1, 0, 9, 3, 4, 9, 0, 6, 1]
	const weeks = weeksFrom(counts)

	test('an SVG image named by its title and a description with the total and the busiest week', () => {
		const html = render(weeks)
		const svg = /<svg[^>]*>/.exec(html)![0]
		expect(svg).toContain('role="img"')
		const labelledBy = decode(/aria-labelledby="([^"]+)"/.exec(svg)![1]!).split(' ')
		expect(labelledBy).toHaveLength(2)
		const [titleId, descId] = labelledBy as [string, string]
		expect(html).toMatch(new RegExp(`<title id="${titleId.replace(/[^\w-]/g, '.')}"`))
		expect(html).toMatch(new RegExp(`<desc id="${descId.replace(/[^\w-]/g, '.')}"`))
		expect(textOf(html, titleId.replace(/[^\w-]/g, '.'))).toContain('الطلبات الجديدة')
		const description = textOf(html, descId.replace(/[^\w-]/g, '.'))
		expect(description).toContain(': 40.')
		// Weeks 6 and 9 both have 9; the later one (31/10) is named.
		expect(weeks[8]!.start).toBe('2026-10-31')
		expect(description).toContain('31/10')
		expect(description).toContain('9 طلبات')
	})

	test('twelve bars, the newest at the left (the inline end of this right-to-left page), each with its count and date', () => {
		const html = render(weeks)
		const bars = [...html.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)]
		expect(bars).toHaveLength(12)
		const x = bars.map((bar) => Number(bar[1]))
		// Oldest first in the data, right to left on the drawing.
		expect(x).toEqual([...x].sort((a, b) => b - a))
		const heights = bars.map((bar) => Number(bar[4]))
		expect(heights[0]).toBe(0)
		expect(heights[5]).toBe(Math.max(...heights))
		expect(heights[2]!).toBeGreaterThan(heights[1]!)
		for (const week of weeks) expect(html).toContain(`>${shortWeekLabel(week.start)}<`)
		expect(html).toContain('>5/9<')
	})

	test('a table of every week for those who would rather read figures, without JavaScript', () => {
		const html = render(weeks)
		expect(html).toMatch(/<details[^>]*>\s*<summary/)
		const table = html.slice(html.indexOf('<table'))
		expect(table).toContain('الأسبوع')
		expect(table).toContain('عدد الطلبات')
		expect(table.match(/<tr/g)).toHaveLength(13)
		expect(table).toContain('5\u00a0سبتمبر\u00a02026م')
	})

	test('with no cases at all it says so, and still draws the empty weeks', () => {
		const empty = weeksFrom(Array.from({ length: 12 }, () => 0))
		expect(describeWeeks(empty)).toBe('لم تصل طلبات جديدة في آخر 12 أسبوعاً.')
		const html = render(empty)
		expect(html).toContain('لم تصل طلبات جديدة في آخر 12 أسبوعاً.')
		expect(html).not.toContain('NaN')
		expect([...html.matchAll(/<rect /g)]).toHaveLength(12)
	})

	test('the counted nouns agree with the number', () => {
		expect(describeWeeks(weeksFrom([0, 1]))).toBe('مجموع الطلبات الجديدة في آخر أسبوعين: 1. أكثر الأسابيع ازدحاماً الأسبوع الذي يبدأ 12/9 بـ طلب واحد.')
		expect(describeWeeks(weeksFrom([2, 0, 0]))).toContain('آخر 3 أسابيع: 2.')
		expect(describeWeeks(weeksFrom([2, 0, 0]))).toContain('بـ طلبين.')
		expect(describeWeeks(weeksFrom([12]))).toContain('بـ 12 طلباً.')
	})
})
