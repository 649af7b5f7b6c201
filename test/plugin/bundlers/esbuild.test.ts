import { bundlerSuite } from './suite'

bundlerSuite('esbuild')
