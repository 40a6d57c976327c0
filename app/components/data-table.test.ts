import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

// Every table on a page is app/components/data-table.tsx's DataTable, so each has its scroll
// region, its caption and its column heads' scope in one place (issue 37 §3): no route writes
// its own `<table>`.
test('no route module hand-writes a <table>', () => {
	const routes = path.join(import.meta.dirname, '..', 'routes')
	const files = readdirSync(routes, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.tsx'))
	expect(files.length).toBeGreaterThan(10)
	expect(files.filter((file) => readFileSync(path.join(routes, file), 'utf8').includes('<table'))).toEqual([])
})
