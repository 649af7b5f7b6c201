import type { Options } from '../../../src/index'
import { fromDist, OPTIONS } from '../bundlers/helpers'

type Vite = typeof import('vite')
type ViteDevServer = import('vite').ViteDevServer

export const MAIN = '/@id/__x00__virtual:skills-manifest'
export const skillUrl = (name: string): string => `${MAIN}/skill/${name}`

/** A line the server's logger was given, with its level. */
export interface Logged {
  level: 'info' | 'warn' | 'error'
  message: string
}

/** Polls `check` until it holds: the watcher is asynchronous, so no fixed sleep. */
export async function until(check: () => Promise<boolean>, what: string, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    if (await check())
      return
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A real Vite dev server on `dir` with the built plugin; every line its logger is given goes to `logs`. */
export async function startServer(
  dir: string,
  logs: Logged[],
  options: Options = OPTIONS,
): Promise<{ server: ViteDevServer, get: (url: string) => Promise<{ status: number, text: string }> }> {
  const { createServer, createLogger } = (await import('vite')) as Vite
  const { default: skills } = await fromDist<typeof import('../../../plugins/vite')>('vite.mjs')
  const logger = createLogger('silent')
  for (const level of ['info', 'warn', 'error'] as const)
    logger[level] = (message: string) => void logs.push({ level, message })
  const server = await createServer({
    configFile: false,
    root: dir,
    server: { port: 0, host: '127.0.0.1', ws: false },
    customLogger: logger,
    plugins: [skills(options)],
  })
  await server.listen()
  const address = server.httpServer!.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const get = async (url: string): Promise<{ status: number, text: string }> => {
    const res = await fetch(base + url)
    return { status: res.status, text: await res.text() }
  }
  return { server, get }
}
