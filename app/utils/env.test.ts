import { describe, expect, test } from 'vitest'
import { EnvError, parseEnv, publicOrigin } from './env.server.ts'
import { formatFileSize } from '#app/text/format.ts'

describe('parseEnv', () => {
	test('defaults: port 3000, ./data, embedded database, Secure cookies only in production', () => {
		const env = parseEnv({})
		expect(env.PORT).toBe(3000)
		expect(env.dataDir).toMatch(/\/data$/)
		expect(env.DATABASE_URL).toBeUndefined()
		expect(env.cookieSecure).toBe(false)
		expect(parseEnv({ NODE_ENV: 'production' }).cookieSecure).toBe(true)
		expect(parseEnv({ NODE_ENV: 'production', COOKIE_SECURE: 'false' }).cookieSecure).toBe(false)
	})

	test('the upload limit is UPLOAD_MAX_MB megabytes of 1,000,000 bytes, the unit every size is shown in', () => {
		expect(parseEnv({}).uploadMaxBytes).toBe(10_000_000)
		expect(parseEnv({ UPLOAD_MAX_MB: '2.5' }).uploadMaxBytes).toBe(2_500_000)
		expect(formatFileSize(parseEnv({}).uploadMaxBytes)).toBe('10 ميغابايت')
	})

	test('published PDFs have their own limit, DOCUMENT_MAX_MB, 20 MB unless set', () => {
		expect(parseEnv({}).documentMaxBytes).toBe(20_000_000)
		expect(parseEnv({ DOCUMENT_MAX_MB: '1' }).documentMaxBytes).toBe(1_000_000)
		expect(() => parseEnv({ DOCUMENT_MAX_MB: '0' })).toThrow(/DOCUMENT_MAX_MB/)
	})

	test('videos have their own limit, VIDEO_MAX_MB, 500 MB unless set', () => {
		expect(parseEnv({}).videoMaxBytes).toBe(500_000_000)
		expect(parseEnv({ VIDEO_MAX_MB: '2' }).videoMaxBytes).toBe(2_000_000)
		expect(() => parseEnv({ VIDEO_MAX_MB: 'lots' })).toThrow(/VIDEO_MAX_MB/)
	})

	test('reads the values it is given', () => {
		const env = parseEnv({ PORT: '8080', DATA_DIR: '/srv/ataa', DATABASE_URL: 'postgres://u@db:5432/ataa', APP_ORIGIN: 'https://ataa.org.sa, https://www.ataa.org.sa' })
		expect(env.PORT).toBe(8080)
		expect(env.dataDir).toBe('/srv/ataa')
		expect(env.DATABASE_URL).toBe('postgres://u@db:5432/ataa')
		expect(env.APP_ORIGIN).toEqual(['https://ataa.org.sa', 'https://www.ataa.org.sa'])
	})

	test('links sent to people are built on APP_ORIGIN\'s first origin; the demo uses localhost and its port; production requires it', () => {
		expect(publicOrigin(parseEnv({ APP_ORIGIN: 'https://ataa.org.sa,https://www.ataa.org.sa', NODE_ENV: 'production' }))).toBe('https://ataa.org.sa')
		expect(publicOrigin(parseEnv({ PORT: '8080' }))).toBe('http://localhost:8080')
		expect(() => publicOrigin(parseEnv({ NODE_ENV: 'production' }))).toThrow(EnvError)
		expect(() => publicOrigin(parseEnv({ ATAA_ENV: 'production', NODE_ENV: 'production' }))).toThrow(/APP_ORIGIN is not set/)
	})

	test('the SMS gateway and the foundation\'s notification address are optional; the gateway must be an http(s) URL', () => {
		const none = parseEnv({})
		expect([none.SMS_URL, none.SMS_TOKEN, none.SMS_SENDER, none.NOTIFY_EMAIL]).toEqual([undefined, undefined, undefined, undefined])
		const env = parseEnv({ SMS_URL: 'https://sms.example.org/api/send', SMS_TOKEN: 'secret', SMS_SENDER: 'ATAA', NOTIFY_EMAIL: 'cases@ataa.org.sa' })
		expect(env).toMatchObject({ SMS_URL: 'https://sms.example.org/api/send', SMS_TOKEN: 'secret', SMS_SENDER: 'ATAA', NOTIFY_EMAIL: 'cases@ataa.org.sa' })
		expect(parseEnv({ SMS_URL: 'http://127.0.0.1:8080/sms' }).SMS_URL).toBe('http://127.0.0.1:8080/sms')
	})

	test.each([
		[{ PORT: 'abc' }, 'PORT'],
		[{ PORT: '70000' }, 'PORT'],
		[{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
		[{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
		[{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
		[{ ADMIN_PASSWORD: 'Password12345' }, 'ADMIN_PASSWORD'],
		[{ APP_ORIGIN: 'https://ataa.org.sa/path' }, 'APP_ORIGIN'],
		[{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE'],
		[{ SMS_URL: 'sms.example.org/send' }, 'SMS_URL'],
		[{ SMS_URL: 'ftp://sms.example.org/send' }, 'SMS_URL'],
		[{ SMS_URL: 'https://' }, 'SMS_URL'],
		[{ NOTIFY_EMAIL: 'cases' }, 'NOTIFY_EMAIL'],
	])('a bad value stops start-up with a message naming it: %o', (source, name) => {
		expect(() => parseEnv(source)).toThrow(EnvError)
		expect(() => parseEnv(source)).toThrow(new RegExp(`- ${name}:`))
	})
})
