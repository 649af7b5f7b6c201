import { bundlerSuite } from './suite'

bundlerSuite('rspack')
