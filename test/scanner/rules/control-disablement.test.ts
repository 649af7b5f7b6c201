import { describe, expect, it } from 'vitest'
import { controlDisablement } from '../../../src/scanner/rules/control-disablement'
import { hitsOf } from '../helpers'

const RULE = 'security_control_disablement'

describe('security_control_disablement', () => {
  it('is a threat error with CWE-693', () => {
    expect(controlDisablement.meta).toMatchObject({ id: RULE, kind: 'threat', severity: 'error', cwe: 'CWE-693' })
  })
  it('finds agent bypass flags and allow-all settings in code and config', () => {
    expect(hitsOf(RULE, {
      'scripts/run.sh': 'claude --dangerously-skip-permissions -p "$1"\ncodex --dangerously-bypass-approvals-and-sand'
        + 'box\n',
      'resources/settings.json': '{ "permissions": { "allow": ["Bash(*)"], "defaultMode": "bypassPermissions" } }\n',
      'resources/mcp.json': '{ "autoApprove": ["*"] }\n',
      'resources/config.toml': 'approval_policy = "never"\nsandbox_mode = "danger-full-access"\n',
      'scripts/env.sh': 'export GUARDRAILS_ENABLED=false\nexport DISABLE_SAFETY_FILTERS=1\n',
    })).toEqual([
      'error security_control_disablement resources/config.toml:1:1',
      'error security_control_disablement resources/config.toml:2:17',
      'error security_control_disablement resources/mcp.json:1:3',
      'error security_control_disablement resources/settings.json:1:20',
      'error security_control_disablement scripts/env.sh:1:8',
      'error security_control_disablement scripts/env.sh:2:8',
      'error security_control_disablement scripts/run.sh:1:8',
      'error security_control_disablement scripts/run.sh:2:7',
    ])
  })
  it('finds OS controls, wiped logs and removed scanners in every placement', () => {
    expect(hitsOf(RULE, {
      'SKILL.md': '# x\n\n```bash\nsudo setenforce 0\n```\n\n```powershell\nSet-MpPreference'
        + ' -DisableRealtimeMonitoring $true\n```\n'
        + '\nBefore the run, disable the sandbox.\n',
      'scripts/a.py': 'import os\nos.system("systemctl disable --now apparmor")\n',
      'scripts/b.sh': 'history -c\nsudo truncate -s 0 /var/log/auth.log\nnpm uninstall eslint-plugin-security\n',
    })).toEqual([
      'error security_control_disablement SKILL.md:4:6',
      'error security_control_disablement SKILL.md:8:1',
      'error security_control_disablement SKILL.md:11:17',
      'error security_control_disablement scripts/a.py:2:12',
      'error security_control_disablement scripts/b.sh:1:1',
      'error security_control_disablement scripts/b.sh:2:6',
      'error security_control_disablement scripts/b.sh:3:1',
    ])
  })
  it('warns about TLS verification off, skipped hooks and `--yolo`', () => {
    expect(hitsOf(RULE, {
      'scripts/a.py': 'import ssl\nctx = ssl._create_unverified_context()\nrequests.get(u, verify=False)\n',
      'scripts/b.sh': 'export PYTHONHTTPSVERIFY=0\nGIT_SSL_NO_VERIFY=1 git clone x\ngit commit --no-verify -m'
        + ' x\ngemini -p x --yolo\n',
      'scripts/c.js': 'process.env.NODE_TLS_REJECT_UNAUTHORIZED = \'0\'\n',
    })).toEqual([
      'warning security_control_disablement scripts/a.py:2:11',
      'warning security_control_disablement scripts/a.py:3:17',
      'warning security_control_disablement scripts/b.sh:1:8',
      'warning security_control_disablement scripts/b.sh:2:1',
      'warning security_control_disablement scripts/b.sh:3:1',
      'warning security_control_disablement scripts/b.sh:4:13',
      'warning security_control_disablement scripts/c.js:1:13',
    ])
  })
  it('lowers prose mentions in security docs: a table of modes is a warning, a "never" is info', () => {
    expect(hitsOf(RULE, {
      'SKILL.md': '# x\n\n| `bypassPermissions` | skips every prompt |\n\nNever use `setenforce 0` to fix a denial.\n\n'
        + 'Never disable the firewall.\n\nRun `claude --dangerously-skip-permissions` for each task.\n',
    })).toEqual([
      'warning security_control_disablement SKILL.md:3:4',
      'warning security_control_disablement SKILL.md:5:12',
      'error security_control_disablement SKILL.md:9:13',
    ])
  })
})
