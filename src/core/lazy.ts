import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A dependency loaded on first use instead of at import. Parsers and the code-frame printer are
 * needed by few runs (a check whose scripts never reach the parser, a JSON report), and every
 * process and worker thread would pay their load, a startup cost of its own for each of oxc-parser
 * (a native binding), acorn, @babel/code-frame and picomatch. oxc-parser is ESM-only: `require` loads
 * it synchronously on Node >= 20.19.
 */
export function lazy<T>(id: string): () => T {
  let loaded: T | undefined
  return () => (loaded ??= require(id) as T)
}
