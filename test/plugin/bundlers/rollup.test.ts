import { bundlerSuite } from './suite'

bundlerSuite('rollup')
