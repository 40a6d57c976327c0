import { createContext, useContext } from 'react'

/**
 * The site's stylesheet, to write into the page itself instead of linking it: set by the server
 * for pages that ship no script (a phone on a slow network paints them one request sooner). Pages
 * that hydrate link it, so the browser's React finds the same <head> the server drew.
 */
export const InlineCssContext = createContext<string | undefined>(undefined)
export const useInlineCss = () => useContext(InlineCssContext)
