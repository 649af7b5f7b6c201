import { fileURLToPath } from 'node:url'
import skills from 'unplugin-skills/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  // Pinned so that `vite build playground` and the JS API agree whatever the working directory.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    // Enterprise profile and lock verification are the defaults: a drifted or unsafe skill fails the build.
    // `dts` writes the literal union of skill names, so `getSkill('typo')` fails to typecheck.
    skills({ roots: ['skills'], dts: 'src/skills.d.ts' }),
  ],
})
