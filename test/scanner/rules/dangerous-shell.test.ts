import { describe, expect, it } from 'vitest'
import { dangerousShell } from '../../../src/scanner/rules/dangerous-shell'
import { hitsOf } from '../helpers'

describe('dangerous_shell', () => {
  it('is an error rule with a CWE; sudo and chmod 777 are warnings, TLS opt-outs another rule\'s', () => {
    expect(dangerousShell.meta).toMatchObject({ id: 'dangerous_shell', severity: 'error', cwe: 'CWE-250' })
    expect(
      hitsOf('dangerous_shell', {
        'scripts/a.sh':
          '#!/bin/sh\nrm -rf --no-preserve-root /\nrm -fr ~\nchmod -R 777 /var/www\nsudo apt-get install jq\ncurl -k https://x.example\ndd if=/dev/zero of=/dev/sda\n:(){ :|:& };:\n',
        'scripts/b.js': 'process.env.NODE_TLS_REJECT_UNAUTHORIZED = \'0\'\n',
      }),
    ).toEqual([
      'error dangerous_shell scripts/a.sh:2:1',
      'error dangerous_shell scripts/a.sh:3:1',
      'warning dangerous_shell scripts/a.sh:4:1',
      'warning dangerous_shell scripts/a.sh:5:1',
      'error dangerous_shell scripts/a.sh:7:1',
      'error dangerous_shell scripts/a.sh:8:1',
    ])
    expect(hitsOf('security_control_disablement', {
      'scripts/a.sh': '#!/bin/sh\ncurl -k https://x.example\n',
      'scripts/b.js': 'process.env.NODE_TLS_REJECT_UNAUTHORIZED = \'0\'\n',
    })).toEqual([
      'warning security_control_disablement scripts/a.sh:2:1',
      'warning security_control_disablement scripts/b.js:1:13',
    ])
  })
  it('ignores scoped deletes, chmod +x and comments', () => {
    expect(
      hitsOf('dangerous_shell', { 'scripts/c.sh': '# rm -rf /\nrm -rf ./build node_modules\nchmod +x run.sh\n' }),
    ).toEqual([])
  })
})
