import { bundlerSuite } from './suite'

bundlerSuite('rolldown')
