import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Rolldown: `plugins: [skills(options)]`. */
const skills = unplugin.rolldown
export { skills as default, skills as 'module.exports' }
