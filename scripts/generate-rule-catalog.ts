/**
 * `npx tsx scripts/generate-rule-catalog.ts`: writes data/rule-catalog.json, the metadata of every built-in
 * rule as its module owns it. The audit reads rules' ids, severities and descriptions from it (options, SARIF)
 * without loading the scanner (src/scanner/catalog.ts); test/scanner/catalog.test.ts fails when a rule's
 * metadata changed and this was not run again.
 */
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { writeIfChanged } from '../src/core/fs'
import { RULE_METAS } from '../src/scanner/rules/index'

export const CATALOG_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'rule-catalog.json')

/** The file's text: the rules in the scanner's order, each with its metadata's own key order. */
export function catalogText(): string {
  return `${JSON.stringify({ rules: RULE_METAS }, null, 2)}\n`
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeIfChanged(CATALOG_FILE, catalogText())
  console.log(`[unplugin-skills] ${path.relative(process.cwd(), CATALOG_FILE)}: ${RULE_METAS.length} rules`)
}
