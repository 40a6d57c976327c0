// Runs the production server on a fresh temporary data directory and removes it when stopped.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-e2e-'))
const server = spawn(process.execPath, ['server.mjs'], { stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir } })

function cleanUp() {
	fs.rmSync(dataDir, { recursive: true, force: true })
}

server.on('exit', (code) => {
	cleanUp()
	process.exit(code ?? 0)
})
for (const signal of ['SIGTERM', 'SIGINT']) {
	process.on(signal, () => server.kill('SIGTERM'))
}
