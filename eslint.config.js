import antfu from '@antfu/eslint-config'

export default antfu(
  {
    // Source only: skill fixtures are hostile input on purpose, generated validators are ajv's output.
    ignores: [
      'dist/**',
      'coverage/**',
      'src/generated/**',
      'test/fixtures/**',
      'test/.output/**',
      'test/scanner/golden.json',
      'bench/.corpus/**',
      'playground/skills/**',
      'playground/dist/**',
      'data/**',
      'schemas/**',
    ],
    markdown: false,
    yaml: false,
    toml: false,
    jsonc: false,
    // The scanner's patterns are its behaviour, pinned by the golden outputs: eslint-plugin-regexp's fixes rewrite
    // capture groups and quantifiers (a heading's trailing `#`s were captured once such a fix ran).
    regexp: false,
  },
  {
    rules: {
      'style/max-len': ['error', { code: 120, ignoreUrls: true }],
      // `new Array(n).fill(0)` gives a packed array of numbers; `Array.from({ length })` neither types nor packs it.
      'unicorn/no-new-array': 'off',
    },
  },
  {
    // Benchmarks and maintenance scripts are command-line programs: printing is their output, and top-level await
    // runs their steps in order (nothing imports them, so no importer waits on it).
    files: ['bench/**', 'scripts/**'],
    rules: {
      'no-console': 'off',
      'antfu/no-top-level-await': 'off',
    },
  },
  {
    // The executable's entry: nothing imports it, and top-level await is how it waits for the exit code.
    files: ['src/bin.ts'],
    rules: {
      'antfu/no-top-level-await': 'off',
    },
  },
)
