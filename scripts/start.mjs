// `npm start`: build if needed, then serve (migrations, demo content and the first admin happen at start).
import { buildIfNeeded } from './build-if-needed.mjs'

buildIfNeeded()
await import('../server.mjs')
