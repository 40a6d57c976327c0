// The screen a staff change comes from, for the money ledger's entries (app/aid/ledger.server.ts,
// docs/product.md#the-ledger): the audit middleware (app/audit/audit-trail.server.ts, `audited`)
// runs each back-office request inside it, as its page and its form's intent. Outside a request
// (the scheduler, the demo seed, a command) there is none: ''.
import { AsyncLocalStorage } from 'node:async_hooks'

const screens = new AsyncLocalStorage<string>()

export function onScreen<T>(screen: string, work: () => T): T {
	return screens.run(screen.slice(0, 300), work)
}

export const currentScreen = (): string => screens.getStore() ?? ''
