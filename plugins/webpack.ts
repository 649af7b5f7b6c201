import { unplugin } from '../src/plugin/unplugin'

/** unplugin-skills for Webpack: `plugins: [skills(options)]`. */
const skills = unplugin.webpack
export { skills as default, skills as 'module.exports' }
