import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Vite: `plugins: [skills(options)]`. */
const skills = unplugin.vite
export { skills as default, skills as 'module.exports' }
