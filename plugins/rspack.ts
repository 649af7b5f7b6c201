import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Rspack: `plugins: [skills(options)]`. */
const skills = unplugin.rspack
export { skills as default, skills as 'module.exports' }
