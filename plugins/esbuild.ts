import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Esbuild: `plugins: [skills(options)]`. */
const skills = unplugin.esbuild
export { skills as default, skills as 'module.exports' }
