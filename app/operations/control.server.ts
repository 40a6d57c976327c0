import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

/**
 * The server's control socket: how an operator's script reaches a running server that holds the
 * embedded database (only one process may open DATA_DIR/pgdata, app/utils/data-dir-lock.server.ts).
 * A Unix domain socket at DATA_DIR/ataa.sock, mode 0600, so only the operating-system user the
 * server runs as can connect; never a TCP port. Commands are registered by name; a script sends
 * one name and reads the answer (docs/operations.md, backups).
 *
 * On the wire the client writes the command's name and a newline. The server answers with frames:
 * one type byte, a 4-byte big-endian length, then that many bytes. `d` carries data, `e` an error
 * message (the last frame), `k` says the answer is complete (the last frame). An answer cut short
 * (the server stopped) thus never looks like a whole one.
 */

const commands = new Map<string, () => AsyncIterable<Uint8Array>>()

/** A command that answers with text (a short report), e.g. retention's. */
export function registerControlCommand(name: string, run: () => Promise<string>): void {
	registerControlStream(name, async function* () {
		yield Buffer.from(await run(), 'utf8')
	})
}

/** A command that answers with a stream of bytes, e.g. the database's dump for a backup. */
export function registerControlStream(name: string, run: () => AsyncIterable<Uint8Array>): void {
	if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`"${name}" is not a control command name (lower case, digits and hyphens).`)
	commands.set(name, run)
}

export function controlSocketPath(dataDir: string): string {
	return path.join(dataDir, 'ataa.sock')
}

/** The command's name may not be longer than this; anything longer is no command of ours. */
const MAX_COMMAND = 200
const HEADER = 5

function frame(type: 'd' | 'e' | 'k', payload: Uint8Array = new Uint8Array()): Buffer {
	const header = Buffer.alloc(HEADER)
	header.write(type, 0, 'latin1')
	header.writeUInt32BE(payload.length, 1)
	return Buffer.concat([header, payload])
}

/**
 * Listens on DATA_DIR/ataa.sock; the function it gives stops listening and removes the socket.
 * Called by the server that holds the data directory's lock, so a socket file left by a crashed
 * server is removed first: nobody else can be listening on it.
 */
export async function startControlServer(dataDir: string): Promise<() => Promise<void>> {
	const socketPath = controlSocketPath(dataDir)
	// sun_path holds 107 bytes on Linux: a longer path cannot be a socket at all.
	if (Buffer.byteLength(socketPath) > 107) throw new Error(`The control socket path ${socketPath} is too long for a Unix socket (107 bytes at most): choose a shorter DATA_DIR.`)
	fs.rmSync(socketPath, { force: true })
	const sockets = new Set<net.Socket>()
	const server = net.createServer((socket) => {
		sockets.add(socket)
		socket.on('close', () => sockets.delete(socket))
		socket.on('error', () => socket.destroy())
		serve(socket)
	})
	// The socket file is made by bind() inside listen(): with this umask it is never, even for a
	// moment, open to other users. listen() binds synchronously in a process that is not a cluster worker.
	const previous = process.umask(0o177)
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject)
			server.listen(socketPath, () => {
				server.off('error', reject)
				resolve()
			})
		})
	} finally {
		process.umask(previous)
	}
	fs.chmodSync(socketPath, 0o600)
	return async () => {
		for (const socket of sockets) socket.destroy()
		await new Promise<void>((resolve) => server.close(() => resolve()))
		fs.rmSync(socketPath, { force: true })
	}
}

function serve(socket: net.Socket): void {
	let received = ''
	const onData = (chunk: Buffer) => {
		received += chunk.toString('utf8')
		const end = received.indexOf('\n')
		if (end === -1) {
			if (received.length > MAX_COMMAND) socket.end(frame('e', Buffer.from('The command is too long.')))
			return
		}
		socket.off('data', onData)
		void answer(socket, received.slice(0, end).trim())
	}
	socket.on('data', onData)
}

async function answer(socket: net.Socket, name: string): Promise<void> {
	const run = commands.get(name)
	if (!run) {
		socket.end(frame('e', Buffer.from(`The server has no control command "${name}" (it knows: ${[...commands.keys()].sort().join(', ') || 'none'}).`)))
		return
	}
	try {
		for await (const chunk of run()) {
			if (socket.destroyed) return
			// Backpressure: a slow reader (a backup written to a slow disk) holds the dump in the server's memory at most once.
			if (!socket.write(frame('d', chunk))) await new Promise<void>((resolve) => socket.once('drain', resolve).once('close', resolve))
		}
		socket.end(frame('k'))
	} catch (error) {
		socket.end(frame('e', Buffer.from(error instanceof Error ? error.message : String(error))))
	}
}

/** No server answers on DATA_DIR/ataa.sock (none running, or one started before control sockets). */
export class ControlUnavailableError extends Error {
	override name = 'ControlUnavailableError'
}

/** The command failed on the server: its message. */
export class ControlCommandError extends Error {
	override name = 'ControlCommandError'
}

/** Sends `command` to the server holding `dataDir` and yields its answer's bytes as they come. */
export async function* requestControlStream(dataDir: string, command: string): AsyncGenerator<Buffer> {
	const socketPath = controlSocketPath(dataDir)
	const socket = net.createConnection(socketPath)
	try {
		await new Promise<void>((resolve, reject) => {
			socket.once('connect', resolve)
			socket.once('error', (error: NodeJS.ErrnoException) => {
				if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new ControlUnavailableError(`No server answers on ${socketPath}.`))
				else reject(error)
			})
		})
		socket.write(`${command}\n`)
		let pending: Buffer = Buffer.alloc(0)
		for await (const chunk of socket as AsyncIterable<Buffer>) {
			pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
			while (pending.length >= HEADER) {
				const length = pending.readUInt32BE(1)
				if (pending.length < HEADER + length) break
				const type = String.fromCharCode(pending[0]!)
				const payload = pending.subarray(HEADER, HEADER + length)
				pending = pending.subarray(HEADER + length)
				if (type === 'd') yield payload
				else if (type === 'k') return
				else if (type === 'e') throw new ControlCommandError(payload.toString('utf8'))
				else throw new Error(`The control socket ${socketPath} sent something that is not an answer.`)
			}
		}
		throw new Error(`The server closed ${socketPath} before its answer to "${command}" was complete.`)
	} finally {
		socket.destroy()
	}
}

/** Sends a text command to the server holding `dataDir`; its answer. */
export async function requestControl(dataDir: string, command: string): Promise<string> {
	const chunks: Buffer[] = []
	for await (const chunk of requestControlStream(dataDir, command)) chunks.push(chunk)
	return Buffer.concat(chunks).toString('utf8')
}
