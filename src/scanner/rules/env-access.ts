import type { RuleModule } from '../types'

/** Reading the process environment from code: where API keys and tokens usually live. */
export const envAccess: RuleModule = {
  meta: {
    id: 'env_access',
    kind: 'capability',
    capability: 'env',
    severity: 'error',
    cwe: 'CWE-526',
    description:
      'Reads environment variables (process.env, os.environ, os.getenv, printenv): the environment holds the '
      + 'user\'s tokens and keys.',
    hint: 'Declare `capabilities: [env]` if the skill reads the environment, and read only the variables it needs.',
  },
  patterns: [
    {
      anchor: 'process|Deno|Bun',
      re: /\b(?:process\s*\.\s*env|Deno\s*\.\s*env|Bun\s*\.\s*env)\b/,
      langs: ['js'],
      view: 'code',
      message: 'reads the environment',
    },
    {
      anchor: 'environ|getenv',
      re: /\bos\s*\.\s*(?:environ|getenv|environb)\b|\bfrom\s+os\s+import\s+[^\n]*\b(?:environ|getenv)\b/,
      langs: ['py'],
      view: 'code',
      message: 'reads the environment',
    },
    {
      anchor: 'printenv|env|export',
      // Dumping the whole environment, not reading one `$VAR` (every shell line does that).
      re: /(?:^|[\s;&|(`$])(?:printenv|env)\s*(?:$|[|>;&)`])|(?:^|[\s;&|(`$])export\s+-p\b/,
      langs: ['sh'],
      view: 'code',
      message: 'dumps the environment',
    },
  ],
}
