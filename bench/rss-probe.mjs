// `node --import ./bench/rss-probe.mjs dist/cli.mjs ...`: prints the process's peak RSS (bytes) as the last
// line of stderr when it exits, so the bench can read a CLI run's memory without a platform `time` tool.
import process from 'node:process'

process.on('exit', () => {
  process.stderr.write(`\nmaxRSS ${process.resourceUsage().maxRSS * 1024}\n`)
})
