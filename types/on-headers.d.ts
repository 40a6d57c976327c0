// on-headers ships no types (server.mjs uses it): calls `listener` just before `res` writes its headers.
declare module 'on-headers' {
	import type { ServerResponse } from 'node:http'
	export default function onHeaders(res: ServerResponse, listener: (this: ServerResponse) => void): void
}
