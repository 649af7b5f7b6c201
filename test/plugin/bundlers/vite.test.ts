import { bundlerSuite } from './suite'

bundlerSuite('vite')
