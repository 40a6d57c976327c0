import { createContext, useContext } from 'react'

/**
 * The CSP nonce of this response; none on a page the page cache keeps (its inline scripts are
 * allowed by hash) and none in the browser, where it is not needed.
 */
export const NonceContext = createContext<string | undefined>(undefined)
export const useNonce = () => useContext(NonceContext)
