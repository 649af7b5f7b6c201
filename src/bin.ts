#!/usr/bin/env node
import process from 'node:process'
import v8 from 'node:v8'
import { main } from './cli'

/**
 * A check keeps a few KB per skill and turns over far more in short-lived garbage. V8 sizes the old generation
 * for throughput, up to 4x what survived the last full collection, which at 10,000 skills is most of the
 * process's memory. This process holds nothing else, so it grows the heap by V8's own conservative factor
 * (1.3) instead: peak memory falls by half at no measurable cost in time (bench/README.md, "Memory"). Only
 * the CLI sets it, unless its node was given a value; the plugin leaves its host's heap alone.
 */
const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
if (!/--heap[-_]growing[-_]percent/.test(given))
  v8.setFlagsFromString('--heap-growing-percent=30')

/**
 * A reader that leaves early (`unplugin-skills lock | head -1`) closes the pipe: later writes fail with EPIPE.
 * That is the reader's choice, not the command's failure: the rest of the output is dropped (the stream is
 * destroyed, so further writes are no-ops) and the command finishes with its own exit code, no stack trace.
 */
function dropOutputOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE')
      throw error
  })
}
dropOutputOnClosedPipe(process.stdout)
dropOutputOnClosedPipe(process.stderr)

process.exitCode = await main(process.argv.slice(2))
