import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Rollup: `plugins: [skills(options)]`. */
const skills = unplugin.rollup
export { skills as default, skills as 'module.exports' }
