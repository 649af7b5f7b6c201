import type Ajv from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { Diagnostic, Profile } from '../core/types'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { diagnostic } from '../core/diagnostics'
import { agentskills, enterprise, recommended } from '../generated/validators.js'

/** Frontmatter keys with a meaning of their own; any other key is preserved under `metadata`. */
export const KNOWN_KEYS = new Set([
  'name',
  'description',
  'version',
  'domain',
  'category',
  'tags',
  'triggers',
  'license',
  'compatibility',
  'allowed-tools',
  'capabilities',
  'metadata',
  'workload',
  'composed_skills',
])

/** The rule behind each field, in plain words, for messages. */
const FIELD_RULES: Record<string, string> = {
  'name': '1-64 characters of a-z, 0-9 and -, with no leading, trailing or double hyphen',
  'description': '1-1024 characters saying what the skill does and when to use it',
  'version': 'a semantic version such as 1.2.0',
  'domain': 'a lowercase slug such as `data` or `retailcortex.com`',
  'category': 'a lowercase slug such as `databases`',
  'compatibility': '1-500 characters',
  'metadata': 'a map of string keys to string values',
  'allowed-tools': 'a space-separated string such as `Bash(git:*) Read`',
  'workload': '`read` or `write`',
  'tags': 'a list of unique strings',
  'triggers': 'a list of phrases',
  'capabilities': 'a list of unique capability words (network, fs:write, process, env, secrets, dynamic-code)',
  'composed_skills': 'a list of skill names',
}

const RELAX: Record<Profile, string> = {
  enterprise: 'set `profile: \'agentskills\'` to validate against the agentskills.io baseline instead',
  agentskills: 'adjust the field, or validate with a custom `schema`',
}

// The package's schemas are compiled when it is built (src/generated/); ajv itself is loaded only to
// compile a user's custom schema, with the same options.
let ajv: Ajv | null = null
const compiled = new Map<unknown, ValidateFunction>()
function compile(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    if (!ajv) {
      const Ajv = (createRequire(import.meta.url)('ajv') as { default: typeof import('ajv').default }).default
      ajv = new Ajv({ allErrors: true, strict: false })
    }
    validate = ajv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

export interface SchemaContext {
  profile: Profile
  /** The user's extra schema (object), if any. */
  custom: Record<string, unknown> | null
  file: string
  skill: string
  locate: (key: string) => { line: number, column: number } | null
}

/**
 * Validates a parsed frontmatter mapping against the profile (errors), the recommendations (warnings)
 * and the user's schema.
 */
export function validateFrontmatter(data: Record<string, unknown>, ctx: SchemaContext): Diagnostic[] {
  const profile = ctx.profile === 'enterprise' ? enterprise : agentskills
  const out = report(profile, data, ctx, { severity: 'error', source: `the ${ctx.profile} profile` })
  out.push(...report(recommended, data, ctx, { severity: 'warning', source: 'the agentskills.io recommendations' }))
  if (ctx.custom) {
    const custom = { severity: 'error', source: 'your custom schema', code: 'schema/custom' } as const
    out.push(...report(compile(ctx.custom), data, ctx, custom))
  }
  return out
}

/** Loads a user schema given as a path (relative to root) or an object; problems become a diagnostic. */
export function loadCustomSchema(
  schema: string | Record<string, unknown> | null,
  root: string,
  out: Diagnostic[],
): Record<string, unknown> | null {
  if (!schema)
    return null
  if (typeof schema !== 'string')
    return tryCompile(schema, 'the `schema` option', out)
  const file = path.resolve(root, schema)
  try {
    return tryCompile(JSON.parse(fs.readFileSync(file, 'utf8')), schema, out)
  }
  catch (error) {
    out.push(
      diagnostic({
        code: 'schema/invalid-schema',
        severity: 'error',
        message: `custom schema ${schema} could not be read: ${(error as Error).message}`,
        hint: 'Point `schema` at a JSON Schema file.',
      }),
    )
    return null
  }
}

function tryCompile(schema: Record<string, unknown>, label: string, out: Diagnostic[]): Record<string, unknown> | null {
  try {
    compile(schema)
    return schema
  }
  catch (error) {
    out.push(
      diagnostic({
        code: 'schema/invalid-schema',
        severity: 'error',
        message: `${label} is not a valid JSON Schema: ${(error as Error).message}`,
        hint: null,
      }),
    )
    return null
  }
}

/** How a schema's failures are reported: their severity, the schema named in messages, and a fixed code. */
interface ReportAs {
  severity: 'error' | 'warning'
  source: string
  /** Default: `schema/recommended` for warnings, `schema/<keyword>` for errors. */
  code?: string
}

function report(validate: ValidateFunction, data: unknown, ctx: SchemaContext, how: ReportAs): Diagnostic[] {
  const { severity, source, code } = how
  const out: Diagnostic[] = []
  if (validate(data))
    return out
  for (const error of dedupe(validate.errors ?? [])) {
    const field = fieldOf(error)
    const where = ctx.locate(field.split('/').join('.')) ?? ctx.locate(field.split('/')[0]) ?? { line: 1, column: 1 }
    out.push(
      diagnostic({
        code: code ?? (severity === 'warning' ? 'schema/recommended' : `schema/${error.keyword}`),
        severity,
        message: `${describe(error, field)}${lengthOf(error, data)} (${source})`,
        file: ctx.file,
        line: where.line,
        column: where.column,
        skill: ctx.skill,
        hint: hintFor(error, field, ctx.profile, severity),
      }),
    )
  }
  return out
}

// `anyOf` reports each branch plus itself; one message per field and keyword is enough. `required` and
// `additionalProperties` errors share their object's path: each missing or extra key is a field of its own.
function dedupe(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter(e => e.keyword === 'anyOf').map(e => e.instancePath))
  const seen = new Set<string>()
  return errors.filter((e) => {
    if (anyOfPaths.has(e.instancePath) && e.keyword !== 'anyOf')
      return false
    const { missingProperty, additionalProperty } = e.params as Record<string, string | undefined>
    const key = `${e.instancePath}|${e.keyword}|${missingProperty ?? additionalProperty ?? ''}`
    if (seen.has(key))
      return false
    seen.add(key)
    return true
  })
}

function fieldOf(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~')
  if (error.keyword === 'required')
    return (error.params as { missingProperty: string }).missingProperty
  return base || '(frontmatter)'
}

/** `, not 1,180`: the actual length beside a length rule, so the fix is measurable. */
function lengthOf(error: ErrorObject, data: unknown): string {
  if (error.keyword !== 'maxLength' && error.keyword !== 'minLength')
    return ''
  let value = data
  for (const key of error.instancePath.split('/').slice(1))
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return typeof value === 'string' ? ` (it has ${value.length})` : ''
}

function describe(error: ErrorObject, field: string): string {
  const top = field.split('/')[0]
  const rule = FIELD_RULES[top]
  switch (error.keyword) {
    case 'required':
      return `missing required field \`${field}\``
    case 'pattern':
    case 'minLength':
    case 'maxLength':
      return rule && !field.includes('/') ? `\`${field}\` must be ${rule}` : `\`${field}\` ${error.message}`
    case 'type':
    case 'anyOf':
      return rule ? `\`${field}\` must be ${rule}` : `\`${field}\` ${error.message}`
    case 'additionalProperties': {
      const { additionalProperty } = error.params as { additionalProperty: string }
      return `\`${field}\` must not have the key \`${additionalProperty}\``
    }
    case 'enum': {
      const { allowedValues } = error.params as { allowedValues: unknown[] }
      return `\`${field}\` must be one of ${allowedValues.map(v => JSON.stringify(v)).join(', ')}`
    }
    case 'uniqueItems':
      return `\`${field}\` has duplicate items`
    default:
      return `\`${field}\` ${error.message}`
  }
}

function hintFor(error: ErrorObject, field: string, profile: Profile, severity: 'error' | 'warning'): string {
  if (severity === 'warning') {
    if (field.startsWith('metadata'))
      return 'agentskills.io expects `metadata` to map strings to strings; nested values are kept as they are.'
    if (field === 'allowed-tools')
      return 'agentskills.io expects a space-separated string, e.g. `allowed-tools: Bash(git:*) Read`.'
    return 'A recommendation of agentskills.io; the build still passes.'
  }
  if (error.keyword === 'required' && field === 'version')
    return `Add \`version: 1.0.0\`, or ${RELAX[profile]}.`
  if (error.keyword === 'required')
    return `Add \`${field}:\` to the frontmatter, or ${RELAX[profile]}.`
  if (field === 'name')
    return 'Use lowercase letters, digits and single hyphens, and name the folder the same.'
  return `Fix the value, or ${RELAX[profile]}.`
}

/** Known keys as they are; every unrecognised key moves under `metadata` (spec: MUST be preserved there). */
export function normalizeFrontmatter(data: Record<string, unknown>): Record<string, unknown> {
  const known: Record<string, unknown> = {}
  const extra: Record<string, unknown> = {}
  for (const key of Object.keys(data).sort()) {
    if (KNOWN_KEYS.has(key))
      known[key] = data[key]
    else extra[key] = data[key]
  }
  const metadata = known.metadata
  if (Object.keys(extra).length) {
    known.metadata
      = metadata && typeof metadata === 'object' && !Array.isArray(metadata) ? { ...extra, ...metadata } : extra
  }
  if (known.metadata && typeof known.metadata === 'object' && !Array.isArray(known.metadata)) {
    known.metadata = Object.fromEntries(Object.entries(known.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
  return known
}
