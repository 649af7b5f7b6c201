import { Writable } from 'node:stream'
import { main } from '../../src/cli'

/** Runs the CLI in-process with captured stdout and stderr. */
export async function cli(args: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  let stdout = ''
  let stderr = ''
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk, _enc, done) {
        append(String(chunk))
        done()
      },
    })
  const io = { stdout: sink(s => (stdout += s)) as never, stderr: sink(s => (stderr += s)) as never }
  const code = await main(args, io)
  return { code, stdout, stderr }
}
