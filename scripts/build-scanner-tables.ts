/**
 * `tsx scripts/build-scanner-tables.ts` (part of `npm run build`, after tsdown): writes
 * dist/scanner-tables.bin, the tables of every built-in finder, and dist/scanner-gates.json, the conditions
 * of every built-in line pattern, which the built scanner loads instead of deriving them in each process and
 * worker (src/scanner/finder/store.ts, src/scanner/finder/gate-store.ts).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomic } from '../src/core/fs'
import { buildBuiltinTables, builtinPatterns } from '../src/scanner/finder/builtin'
import { encodeGateStore, GATE_FILE } from '../src/scanner/finder/gate-store'
import { encodeTableStore, STORE_FILE } from '../src/scanner/finder/store'

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
const finders = buildBuiltinTables()
const bytes = encodeTableStore(finders)
writeFileAtomic(path.join(dist, STORE_FILE), bytes)
console.log(`[unplugin-skills] ${STORE_FILE}: ${finders.length} finders, ${(bytes.length / 1024).toFixed(0)} KB`)
const gates = encodeGateStore(builtinPatterns())
writeFileAtomic(path.join(dist, GATE_FILE), gates)
console.log(`[unplugin-skills] ${GATE_FILE}: ${(gates.length / 1024).toFixed(0)} KB`)
