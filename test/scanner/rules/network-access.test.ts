import { describe, expect, it } from 'vitest'
import { networkAccess } from '../../../src/scanner/rules/network-access'
import { astHits, hitsOf } from '../helpers'

describe('network_access', () => {
  it('has the registry id and severity', () => {
    expect(networkAccess.meta).toMatchObject({ id: 'network_access', severity: 'error', cwe: 'CWE-918' })
  })
  it('finds fetch, http modules, WebSocket, requests and curl', () => {
    expect(
      hitsOf('network_access', {
        'scripts/a.js': 'await fetch(\'https://x.example\')\nconst h = require(\'ht\' + \'tps\')\nnew WebSocket(\'wss://x\')\n',
        'scripts/b.py': 'import requests\nrequests.get(u)\n',
        'scripts/c.sh': '#!/bin/sh\n# curl https://x\ncurl -s https://x.example\n',
      }),
    ).toEqual([
      'error network_access scripts/a.js:1:7',
      'error network_access scripts/a.js:2:11',
      'error network_access scripts/a.js:3:1',
      'error network_access scripts/b.py:1:1',
      'error network_access scripts/b.py:2:1',
      'error network_access scripts/c.sh:3:1',
    ])
  })
  it('never reads prose ("git fetch", "fetch the data")', () => {
    expect(
      hitsOf('network_access', { 'SKILL.md': '# x\n\nRun git fetch, then fetch the data over a WebSocket.\n' }),
    ).toEqual([])
  })
})

describe('network_access: its AST visitor', () => {
  it('tells a server from a request, and a module\'s own asset from a request', () => {
    const text = [
      'fetch(new URL(\'./logo.png\', import.meta.url))',
      'fetch(new URL(\'./data.json\', import.meta.url).href)',
      'fetch(new URL(\'https://x.example/a\', import.meta.url))',
      'require(\'http\').createServer(h)',
      'navigator.sendBeacon(u, d)',
      'import(\'ht\' + \'tps\')',
    ].join('\n')
    expect(astHits('network_access', text)).toEqual([
      'fetch(new URL(\'https://x.example/a\', import.meta.url)): makes a network request',
      'require(\'http\').createServer(h): starts a network server',
      'require(\'http\'): requires the network module http',
      'navigator.sendBeacon(u, d): makes a network request',
      'import(\'ht\' + \'tps\'): dynamically imports the network module https',
    ])
  })
})
