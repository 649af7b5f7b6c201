/**
 * The finder: what the rest of the scanner may use. Its tables, WebAssembly kernel and shipped store are
 * private to this folder (test/architecture.test.ts holds every other module to this entry).
 */
export { shippedConditions } from './gate-store'
export { compileGate, conditionsOf } from './gates'
export { literalTest, literalTestFinders } from './literal-test'
export { buildFinder, lazyFinder, splitAlternatives } from './prefilter'
export type { Finder } from './prefilter'
export { crossesSentences } from './sentences'
