#!/usr/bin/env node
import process from 'node:process'
import { main } from './cli'

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
