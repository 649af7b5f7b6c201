/**
 * `tsx scripts/build-scanner-tables.ts` (part of `npm run build`, after tsdown): writes
 * dist/scanner-tables.bin, the tables of every built-in finder, which the built scanner loads instead of
 * building them in each process and worker (src/scanner/table-store.ts).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomic } from '../src/core/fs'
import { buildBuiltinTables } from '../src/scanner/finder/builtin'
import { encodeTableStore, STORE_FILE } from '../src/scanner/finder/store'

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
const finders = buildBuiltinTables()
const bytes = encodeTableStore(finders)
writeFileAtomic(path.join(dist, STORE_FILE), bytes)
console.log(`[unplugin-skills] ${STORE_FILE}: ${finders.length} finders, ${(bytes.length / 1024).toFixed(0)} KB`)
