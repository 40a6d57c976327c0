import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ControlCommandError, ControlUnavailableError, controlSocketPath, registerControlCommand, registerControlStream, requestControl, requestControlStream, startControlServer } from './control.server.ts'

let dataDir: string
let stop: (() => Promise<void>) | undefined

beforeEach(() => {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-control-'))
})

afterEach(async () => {
	await stop?.()
	stop = undefined
	fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('the control socket', () => {
	it('answers a registered text command, on a socket only its owner can open', async () => {
		registerControlCommand('test-greeting', async () => 'السلام عليكم')
		stop = await startControlServer(dataDir)
		const stat = fs.statSync(controlSocketPath(dataDir))
		expect(stat.isSocket()).toBe(true)
		expect(stat.mode & 0o777).toBe(0o600)
		expect(await requestControl(dataDir, 'test-greeting')).toBe('السلام عليكم')
	})

	it('streams a large answer whole, in order', async () => {
		const piece = Buffer.alloc(1 << 20)
		registerControlStream('test-stream', async function* () {
			for (let index = 0; index < 8; index++) yield piece.fill(index)
		})
		stop = await startControlServer(dataDir)
		const chunks: Buffer[] = []
		for await (const chunk of requestControlStream(dataDir, 'test-stream')) chunks.push(chunk)
		const received = Buffer.concat(chunks)
		expect(received.length).toBe(8 << 20)
		for (let index = 0; index < 8; index++) expect(received[index << 20]).toBe(index)
	})

	it('passes a failing command’s message on, and names the commands it knows for an unknown one', async () => {
		registerControlCommand('test-failing', async () => {
			throw new Error('the disk is full')
		})
		stop = await startControlServer(dataDir)
		await expect(requestControl(dataDir, 'test-failing')).rejects.toThrow(new ControlCommandError('the disk is full'))
		await expect(requestControl(dataDir, 'no-such-command')).rejects.toThrow(/no control command "no-such-command" \(it knows: .*test-failing/)
	})

	it('says when no server answers, and a server replaces a socket file left by a crash', async () => {
		await expect(requestControl(dataDir, 'test-greeting')).rejects.toThrow(ControlUnavailableError)
		fs.writeFileSync(controlSocketPath(dataDir), '')
		await expect(requestControl(dataDir, 'test-greeting')).rejects.toThrow(ControlUnavailableError)
		registerControlCommand('test-greeting', async () => 'ok')
		stop = await startControlServer(dataDir)
		expect(await requestControl(dataDir, 'test-greeting')).toBe('ok')
		await stop()
		stop = undefined
		expect(fs.existsSync(controlSocketPath(dataDir))).toBe(false)
	})
})
