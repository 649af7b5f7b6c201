import type { ResolvedOptions } from '../core/options'
import type { Diagnostic, ScanResult, Scenario, SkillSource } from '../core/types'
import type { ScenarioDraft } from './scenarios'
import type { UriError } from './uri'
import { diagnostic, sortDiagnostics } from '../core/diagnostics'
import { checkCweMentions } from './cwe'
import { checkHitl } from './hitl'
import { checkHttp429 } from './http429'
import { checkLinks } from './links'
import { draftScenarios, settleScenarios } from './scenarios'
import { checkSecurityCheckpoint } from './security-checkpoint'
import { projectPath } from './text'
import { formatCastorUri, isUriError, skillUrn } from './uri'

export interface EnterpriseContext {
  options: ResolvedOptions
  /** The scanner's result for this skill (detected/declared capabilities, findings). */
  scan: ScanResult | null
  /**
   * Every skill name in this build (for `expected_skills`). null: not known yet; the scenarios are
   * returned as `scenarioDrafts` for `settleScenarios` once every skill has been read.
   */
  skillNames: ReadonlySet<string> | null
}

export interface EnterpriseResult {
  diagnostics: Diagnostic[]
  /** http(s) links, sorted bytewise, unique. */
  links: string[]
  scenarios: Scenario[]
  /** Only when `skillNames` was null: the scenarios with their expected skills still to check. */
  scenarioDrafts?: ScenarioDraft[]
  workload: 'read' | 'write'
  requiresApproval: boolean
  /** When `options.app` is set and the skill has domain/category/version. */
  uri?: string
  urn?: string
}

/**
 * The enterprise profile's quality invariants 3-5, scenarios, HITL and the skill's URI/URN.
 *
 * Profiles: `enterprise` runs everything; links and scenarios are errors, the quality checks
 * (security checkpoint, HTTP 429) warnings that `strict` turns into errors. `agentskills` runs
 * only links, scenarios and HITL, with warnings where enterprise has errors (a `read` skill that
 * writes stays an error: it declared something false).
 * Pure: reads only `skill.files`, never throws (a checker bug becomes a diagnostic).
 */
export function checkEnterprise(skill: SkillSource, ctx: EnterpriseContext): EnterpriseResult {
  const { options } = ctx
  const enterprise = options.profile === 'enterprise'
  const mismatch = enterprise ? 'error' : 'warning'
  const quality = options.strict ? 'error' : 'warning'
  const diagnostics: Diagnostic[] = []
  const result: EnterpriseResult = { diagnostics, links: [], scenarios: [], workload: 'read', requiresApproval: false }

  const guard = (check: string, run: () => void): void => {
    try {
      run()
    }
    catch (error) {
      diagnostics.push(
        diagnostic({
          code: 'quality/internal-error',
          severity: 'error',
          message: `the ${check} check failed on this skill: ${(error as Error)?.message ?? String(error)}`,
          file: projectPath(skill, skill.skillMd.path),
          skill: skill.name,
          hint: 'This is a bug in unplugin-skills; please report it with the skill attached.',
        }),
      )
    }
  }

  guard('link', () => {
    const links = checkLinks(skill, mismatch)
    diagnostics.push(...links.diagnostics)
    result.links = links.links
  })
  guard('scenario', () => {
    const drafts = draftScenarios(skill, mismatch)
    if (!ctx.skillNames) {
      result.scenarioDrafts = drafts
      return
    }
    const scenarios = settleScenarios(drafts, ctx.skillNames)
    diagnostics.push(...scenarios.diagnostics)
    result.scenarios = scenarios.scenarios
  })
  if (enterprise) {
    guard('CWE', () => diagnostics.push(...checkCweMentions(skill, 'error')))
    guard('security checkpoint', () => diagnostics.push(...checkSecurityCheckpoint(skill, ctx.scan, quality)))
    guard('HTTP 429', () => diagnostics.push(...checkHttp429(skill, ctx.scan, quality)))
  }
  guard('HITL', () => {
    const hitl = checkHitl(skill, ctx.scan, options.profile)
    diagnostics.push(...hitl.diagnostics)
    result.workload = hitl.workload
    result.requiresApproval = hitl.requiresApproval
  })
  if (options.app)
    guard('URI', () => identify(skill, options.app!, result))

  sortDiagnostics(diagnostics)
  return result
}

/** Canonical castor:// URI (needs domain, category, version) and URN (needs version) of the skill. */
function identify(skill: SkillSource, app: { domain: string, name: string }, result: EnterpriseResult): void {
  const fm = skill.frontmatter
  const text = (key: string): string | null => (typeof fm[key] === 'string' ? (fm[key] as string) : null)
  const version = text('version')
  if (version === null)
    return
  // Bad frontmatter values point at their key; a bad `app` option has no place in the skill.
  const report = (what: 'URI' | 'URN', error: UriError): void => {
    const key = error.code.slice('uri/'.length)
    const fromApp = what === 'URN' && (key === 'domain' || key === 'app')
    const at = fromApp ? null : skill.locate(key)
    result.diagnostics.push(
      diagnostic({
        code: error.code,
        severity: 'warning',
        message: `no canonical ${what}: ${error.message}`,
        file: projectPath(skill, skill.skillMd.path),
        line: at?.line ?? null,
        column: at?.column ?? null,
        skill: skill.name,
        hint: fromApp ? 'Fix the `app` option: { domain: \'example.com\', name: \'my-agent\' }.' : null,
      }),
    )
  }
  const domain = text('domain')
  const category = text('category')
  if (domain !== null && category !== null) {
    const uri = formatCastorUri({ domain, category, name: skill.name, version })
    if (isUriError(uri))
      report('URI', uri)
    else result.uri = uri
  }
  const urn = skillUrn({ domain: app.domain, app: app.name, skill: skill.name, version })
  if (isUriError(urn))
    report('URN', urn)
  else result.urn = urn
}
