// Set when the server has been told to stop (SIGTERM): it finishes what it is answering, and
// /readyz says 503 so that a load balancer sends nothing new (server.mjs).
let draining = false

export function startDraining(): void {
	draining = true
}

export const isDraining = () => draining
