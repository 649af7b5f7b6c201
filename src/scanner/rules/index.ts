import type { RuleInfo, RuleMeta, RuleModule } from '../types'
import { agentConfig } from './agent-config'
import { childProcess } from './child-process'
import { concealment } from './concealment'
import { controlDisablement } from './control-disablement'
import { credentialHarvesting } from './credential-harvesting'
import { cryptoMining } from './crypto-mining'
import { dangerousShell } from './dangerous-shell'
import { dnsExfiltration } from './dns-exfiltration'
import { dynamicEval } from './dynamic-eval'
import { encodedPayload } from './encoded-payload'
import { envAccess } from './env-access'
import { exfiltration } from './exfiltration'
import { fsWrite } from './fs-write'
import { hiddenUnicode } from './hidden-unicode'
import { networkAccess } from './network-access'
import { obfuscation } from './obfuscation'
import { opaqueArtifact } from './opaque-artifact'
import { promptInjection } from './prompt-injection'
import { remoteExec } from './remote-exec'
import { reverseShell } from './reverse-shell'
import { secrets } from './secrets'
import { secretsAccess } from './secrets-access'
import { supplyChain } from './supply-chain'
import { typosquat } from './typosquat'

/** Built-in rules in a fixed order (the first five are the Clavion registry rules). */
export const RULE_MODULES: readonly RuleModule[] = [
  dynamicEval,
  childProcess,
  networkAccess,
  fsWrite,
  obfuscation,
  promptInjection,
  hiddenUnicode,
  exfiltration,
  remoteExec,
  secrets,
  dangerousShell,
  envAccess,
  secretsAccess,
  typosquat,
  agentConfig,
  concealment,
  controlDisablement,
  opaqueArtifact,
  dnsExfiltration,
  credentialHarvesting,
  encodedPayload,
  reverseShell,
  cryptoMining,
  supplyChain,
]

/** Findings about the scan itself rather than the skill's code. */
export const META_RULES: readonly RuleInfo[] = [
  {
    id: 'unknown-capability',
    severity: 'warning',
    cwe: 'CWE-1059',
    description:
      'A `capabilities` entry is not in the vocabulary (network, fs:write, process, env, secrets, dynamic-code).',
    hint: 'Use one of: network, fs:write, process, env, secrets, dynamic-code.',
  },
  {
    id: 'unused-capability',
    severity: 'info',
    cwe: 'CWE-250',
    description:
      'A capability is declared but the scanner found no use of it (over-broad declaration; a Guardian MAY deny it).',
    hint: 'Remove the capability from the frontmatter if the skill does not need it.',
  },
  {
    id: 'suppression-invalid',
    severity: 'warning',
    cwe: 'CWE-1059',
    description:
      'A `skills-ignore-next-line` comment has no reason or names an unknown rule, so it suppresses nothing.',
    hint: 'Write `skills-ignore-next-line <rule> -- <why this is safe>`.',
  },
  {
    id: 'file-too-large',
    severity: 'warning',
    cwe: 'CWE-400',
    description:
      'A text file is larger than `scanner.maxTextSize`; it was scanned line by line in bounded windows, without '
      + 'the JS parser.',
    hint: 'Split the file, or raise `scanner.maxTextSize` after review.',
  },
  {
    id: 'analysis-too-large',
    severity: 'warning',
    cwe: 'CWE-400',
    description:
      'A JavaScript/TypeScript file needs more than the AST analysis\'s budget (20M steps; real bundles need a few '
      + 'million at most); it was scanned with token patterns instead, which do not see evasions such as a module '
      + 'name split in two.',
    hint: 'Review what makes the file this large to analyse (generated or padded code), and split it.',
  },
  {
    id: 'parse-fallback',
    severity: 'info',
    cwe: 'CWE-1059',
    description:
      'A JavaScript/TypeScript file could not be parsed (syntax error or nesting too deep); it was scanned with '
      + 'token patterns instead.',
    hint: 'Fix the syntax error so the AST rules can read the file.',
  },
]

export const RULES: readonly RuleMeta[] = RULE_MODULES.map(m => m.meta)
