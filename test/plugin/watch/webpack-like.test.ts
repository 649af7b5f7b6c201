import { watchSuite } from './suite'

watchSuite('webpack')
watchSuite('rspack')
