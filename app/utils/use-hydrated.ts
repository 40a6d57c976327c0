import { useSyncExternalStore } from 'react'

const subscribeNever = () => () => {}

/** False while rendering on the server and hydrating, true once React runs in the browser. */
export const useHydrated = () =>
	useSyncExternalStore(
		subscribeNever,
		() => true,
		() => false,
	)
