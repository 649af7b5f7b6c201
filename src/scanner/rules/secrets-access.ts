import type { RuleModule } from '../types'

const STORE_FILE = [
  String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|expanduser\(\s*['"]~)[/\\]?[^\s'"]{0,20}?`,
  String.raw`(?:\.ssh[/\\](?:id_\w+|[\w.-]*key)|\.aws[/\\]credentials|\.netrc|\.npmrc|\.pypirc|\.git-credentials`,
  String.raw`|\.kube[/\\]config|\.docker[/\\]config\.json|\.gnupg|\.config[/\\]gh[/\\]hosts\.yml)`,
].join('')

/** Reading credential stores: key files, keychains, secret managers and token commands. */
export const secretsAccess: RuleModule = {
  meta: {
    id: 'secrets_access',
    kind: 'capability',
    capability: 'secrets',
    severity: 'error',
    cwe: 'CWE-522',
    description:
      'Reads credentials: key files (~/.ssh, ~/.aws/credentials, .netrc), keychains, secret managers, token '
      + 'commands (`gh auth token`), or secret-named environment variables.',
    hint: 'Declare `capabilities: [secrets]` if the skill needs a credential, and read only that one.',
  },
  patterns: [
    {
      anchor: String.raw`\.ssh|\.aws|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.kube|\.docker|\.gnupg|gh`,
      re: new RegExp(STORE_FILE),
      langs: ['sh', 'py', 'js'],
      view: 'noComments',
      message: 'reads a credential file',
    },
    {
      anchor: 'security|secret-tool|keyring|gh|op|vault|secretsmanager|print-access-token|keyvault',
      re: new RegExp([
        String.raw`\bsecurity\s+find-(?:generic|internet)-password\b|\bsecret-tool\s+lookup\b`,
        String.raw`|\bkeyring\s*\.\s*get_(?:password|credential)\s*\(|\bgh\s+auth\s+token\b`,
        String.raw`|\bop\s+(?:read|item\s+get)\b|\bvault\s+(?:kv\s+get|read)\b`,
        String.raw`|\bsecretsmanager\s+get-secret-value\b`,
        String.raw`|\bgcloud\s+auth\s+(?:application-default\s+)?print-access-token\b`,
        String.raw`|\baz\s+keyvault\s+secret\s+show\b`,
      ].join('')),
      langs: ['sh', 'py', 'js'],
      view: 'noComments',
      message: 'reads a secret store',
    },
    {
      anchor: 'env|environ|getenv',
      re: new RegExp([
        String.raw`(?:\b(?:process|Deno|Bun)\s*\.\s*env\s*(?:\.\s*|\[\s*['"\`])`,
        String.raw`|\bos\s*\.\s*(?:environ\s*(?:\[\s*|\.get\s*\(\s*)|getenv\s*\(\s*))`,
        String.raw`['"\`]?[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|CREDENTIALS?)\b`,
      ].join('')),
      langs: ['js', 'py'],
      view: 'noComments',
      message: 'reads a secret from the environment',
    },
  ],
}
