import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: {
    'index': 'src/index.ts',
    'cli': 'src/bin.ts',
    'runtime': 'src/runtime/index.ts',
    'vitest': 'src/vitest.ts',
    'skill-worker': 'src/audit/scheduler/worker.ts',
    'vite': 'plugins/vite.ts',
    'rollup': 'plugins/rollup.ts',
    'rolldown': 'plugins/rolldown.ts',
    'esbuild': 'plugins/esbuild.ts',
    'webpack': 'plugins/webpack.ts',
    'rspack': 'plugins/rspack.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  dts: true,
  clean: true,
  deps: { neverBundle: ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', '@rspack/core', 'vitest'] },
})
