import { bundlerSuite } from './suite'

bundlerSuite('webpack')
