import { watchSuite } from './suite'

watchSuite('rollup')
watchSuite('rolldown')
watchSuite('esbuild')
