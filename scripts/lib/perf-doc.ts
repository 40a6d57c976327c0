// docs/performance.md: each benchmark owns the text between its two markers and replaces it with
// its latest figures, the date, the machine and the exact command. Everything else is left alone.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const PERFORMANCE_DOC = 'docs/performance.md'
/** The files the benchmarks write their figures into: a change there is no change to what was measured. */
const FIGURES_DOCS = new Set([PERFORMANCE_DOC, 'docs/deployment.md'])

const markers = (id: string) => ({ begin: `<!-- ${id}: begin (written by the benchmark; edits here are replaced) -->`, end: `<!-- ${id}: end -->` })

/** Replaces the section `id` of `doc` (docs/performance.md) by `markdown`; appends it when the markers are missing. */
export function writeDocSection(root: string, id: string, markdown: string, doc = PERFORMANCE_DOC): string {
	const file = path.join(root, doc)
	const { begin, end } = markers(id)
	const section = `${begin}\n${markdown.trim()}\n${end}`
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n'
	const start = text.indexOf(begin)
	const stop = text.indexOf(end)
	const next = start >= 0 && stop > start ? text.slice(0, start) + section + text.slice(stop + end.length) : `${text.trimEnd()}\n\n${section}\n`
	fs.mkdirSync(path.dirname(file), { recursive: true })
	fs.writeFileSync(file, next)
	return file
}

/** The command as typed: `npm run <script>` and its arguments, quoted where the shell would need it. */
export function commandLine(script: string): string {
	const args = process.argv.slice(2).map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
	return `npm run ${script}${args.length ? ` -- ${args.join(' ')}` : ''}`
}

const load = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' / ')

/** What the figures depend on: the date, cores, memory, load average (1/5/15 min), kernel, Node. */
export function machineFacts(): { date: string; line: string; loadAtStart: string } {
	const cpus = os.cpus()
	const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'
	const debian = fs.existsSync('/etc/debian_version') ? `Debian ${fs.readFileSync('/etc/debian_version', 'utf8').trim()}, ` : ''
	const date = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
	return {
		date,
		loadAtStart: load(),
		line: `${cpus.length} cores (${model}), ${(os.totalmem() / 1e9).toFixed(1)} GB RAM, ${debian}Linux ${os.release()}, Node ${process.version}`,
	}
}

export const loadNow = load

/** The commit the figures were measured on, and whether the work tree differed from it. */
export function gitRevision(root: string): string {
	const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' })
	if (head.status !== 0) return 'not a git checkout'
	const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' })
	// The benchmarks' own figures (FIGURES_DOCS) do not count as a change to what was measured.
	const changed = dirty.stdout
		.split('\n')
		.map((line) => line.slice(3).trim())
		.filter((file) => file && !FIGURES_DOCS.has(file))
	return `${head.stdout.trim()}${changed.length ? ` (with uncommitted changes to ${changed.join(', ')})` : ''}`
}

/** A Markdown table. */
export function markdownTable(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
	const rule = header.map((_, column) => ((align?.[column] ?? (column === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'))
	return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}

/** A plain-text table for the console, first column left-aligned. */
export function textTable(header: string[], rows: string[][], leftColumns = 1): string[] {
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)))
	const line = (cells: string[]) => cells.map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')
	return [line(header), ...rows.map(line)]
}
