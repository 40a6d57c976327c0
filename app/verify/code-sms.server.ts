// The SMS driver codes go through: the configured provider (app/notify/sms-providers.server.ts).
// Tests swap it for a fake that keeps what it was given.
import type { SmsDriver } from '#app/notify/sms.server.ts'
import { createSmsDriver } from '#app/notify/sms-providers.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

let current: SmsDriver | undefined

export function getCodeSms(): SmsDriver {
	current ??= createSmsDriver(getEnv())
	return current
}

export function setCodeSms(driver: SmsDriver | undefined): void {
	current = driver
}
