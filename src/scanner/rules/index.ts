import type { RuleMeta, RuleModule } from '../types'
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

/** The built-in rules' metadata, as the modules own it (`catalog.ts` serves a copy without loading them). */
export const RULE_METAS: readonly RuleMeta[] = RULE_MODULES.map(m => m.meta)
