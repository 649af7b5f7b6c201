import { defineConfig } from 'vitest/config'
// eslint-disable-next-line antfu/no-import-dist -- tests get the virtual module from the built plugin, as users do
import skills from './dist/vite.mjs'

export default defineConfig({
  // The plugin itself serves `virtual:skills-manifest` to tests (test/plugin/virtual-module.test.ts).
  // No persistent cache: a test run leaves nothing behind in the project.
  plugins: [
    skills({
      roots: ['test/fixtures/vitest-skills'],
      lock: false,
      manifest: false,
      profile: 'agentskills',
      cache: false,
    }),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/.output/**', 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2-core machines: bundler builds are heavy, keep parallelism modest.
    maxWorkers: 2,
    pool: 'forks',
  },
})
