import type { ScanResult, SkillSource } from '../core/types'
import type { ScanOptions } from '../scanner'

/**
 * The scanner, loaded when the first skill has to be scanned: its rules, patterns, tables and JS parser are
 * most of the package's code, and a build whose skills all come from the cache never needs them. What the
 * audit needs of the rules otherwise (ids, severities, descriptions) is in `scanner/catalog.ts`.
 */

type ScanSkill = (skill: SkillSource, options: ScanOptions) => ScanResult

let loaded: ScanSkill | null = null

/** Thrown where a skill must be scanned before the scanner is loaded: load it (`loadScanner`) and retry. */
export class ScannerNotLoaded extends Error {
  constructor() {
    super('the scanner is not loaded')
  }
}

/** Loads the scanner (once per thread). */
export async function loadScanner(): Promise<void> {
  loaded ??= (await import('../scanner')).scanSkill
}

/** Whether a skill can be scanned now. */
export function scannerLoaded(): boolean {
  return loaded !== null
}

/** Scans a skill with the loaded scanner. */
export function scanSkill(skill: SkillSource, options: ScanOptions): ScanResult {
  if (!loaded)
    throw new ScannerNotLoaded()
  return loaded(skill, options)
}
