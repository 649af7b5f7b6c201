import type { LinePattern, RuleModule } from '../types'
import { bySeverity } from './code-blocks'
import { prepareWrapped, wrappedProse } from './code-units'

const ALL: LinePattern['langs'] = ['sh', 'py', 'js', 'prose', 'text']
/** Config literals: code and config files. In prose they are errors only when the line tells the agent to use them. */
const CODE: LinePattern['langs'] = ['sh', 'py', 'js', 'text']
const BYPASS = String.raw`--dangerously-(?:skip-permissions|bypass-approvals-and-sandbox)\b|\bbypassPermissions\b`
  + String.raw`|\bdanger-full-access\b|\b(?:approval_policy|approval-policy|ask-for-approval)["']?\s*[=:\s]\s*["']?ne`
  + String.raw`ver\b`
const NEGATION = /\b(?:never|not|don['’]t|do\s+not|must\s+not|should\s+not|avoid|instead\s+of|rather\s+than)\b/i

/** A clause that tells the agent to use what follows: "Run ...", "Always pass ...". */
const IMPERATIVE = new RegExp(
  String.raw`^[\s>*_\-\d.)]*(?:always\s+|first\s+|then\s+|now\s+)?`
  + String.raw`(?:run|start|launch|invoke|use|call|execute|pass|add|set|enable|switch)\b`,
  'i',
)

/** The clause a match sits in, up to the match: from the last sentence mark before it, at most 80 characters. */
function clauseBefore(m: RegExpExecArray, line: string): string {
  const before = line.slice(0, m.index)
  return before.slice(Math.max(before.search(/[^.;:!?]*$/), before.length - 80))
}

/** Prose only: "never disable the sandbox" is a rule, not an instruction. */
function positive(m: RegExpExecArray, line: string): boolean {
  return !NEGATION.test(clauseBefore(m, line))
}

/**
 * Prose that describes a control rather than telling the agent to switch it off: a heading ("Bypass push
 * protection" as the title of a documented feature), a documented flag's description ("`--yes` | Skip confirmation
 * prompts"), or a verb that is not an imperative ("who can bypass", "excluded paths also skip ..."). "You can ..."
 * still addresses the agent.
 */
function describes(m: RegExpExecArray, line: string): boolean {
  if (/^\s*#{1,6}\s/.test(line))
    return true
  const before = line.slice(0, m.index)
  if (/`-{1,2}[a-z][\w-]*|(?:^|[\s|,])-{1,2}[a-z][\w-]*\b/i.test(before) && /\||^\s*[-*+]\s/.test(before))
    return true
  const clause = before.slice(before.search(/[^.;:!?,]*$/))
  if (/\b(?:can|could|may|might|will|would|who|which)\s+(?:\w+\s+)?$/i.test(clause)
    && !/\byou\s+(?:can|could|may|might|will|would)\s+(?:\w+\s+)?$/i.test(clause)) {
    return true
  }
  return /\w\s+also\s+$/i.test(clause)
}

/** Security scanners uninstalled, their configs or workflows deleted, commit hooks removed or bypassed. */
const REMOVES_SCANNER: Pick<LinePattern, 'anchor' | 're' | 'langs'> = {
  anchor: 'uninstall|remove|rm|hooksPath|pre-commit',
  re: new RegExp(
    String.raw`\b(?:npm|pnpm|yarn|bun)\s+(?:uninstall|remove|rm)\b[^\n]*\b(?:eslint-plugin-security|snyk|audit-ci`
    + String.raw`|@socketsecurity\/\S+|retire|lockfile-lint)\b|\bpip[\d.]*\s+uninstall\b[^\n]*\b(?:bandit|safety`
    + String.raw`|pip-audit|semgrep|detect-secrets)\b|\b(?:rm|git\s+rm)\b[^\n|;&]*(?:\.github\/workflows\/[\w.-]*`
    + String.raw`(?:codeql|security|scan|semgrep|snyk|trivy|gitleaks|secret)[\w.-]*|\.pre-commit-config\.ya?ml`
    + String.raw`|\.gitleaks\.toml|\.semgrep\.ya?ml|dependabot\.ya?ml|\.snyk\b|\.husky\b|\.git\/hooks)`
    + String.raw`|\bgit\s+config\s+(?:--global\s+)?core\.hooksPath\s+\/dev\/null\b|\bpre-commit\s+uninstall\b`,
    'i',
  ),
  langs: ALL,
}

/**
 * `rm .git/hooks/pre-commit`: one named hook, removed without `-r` (a skill's own "to uninstall" step); the
 * hooks folder, Husky's, or a scanner's config removed stays an error.
 */
function oneHook(m: RegExpExecArray, line: string): boolean {
  const command = /^[^\n|;&]*/.exec(line.slice(m.index))![0].replace(/[`'")\s.,:]+$/, '')
  return /^(?:git\s+)?rm\s+(?:-[^r\s]*\s+)*["']?(?:\.\/)?\.git\/hooks\/[\w.-]+$/i.test(command)
}

/** `pre-commit uninstall` right before `pre-commit install`: the hooks are reinstalled, not removed. */
function reinstalls(m: RegExpExecArray, line: string, next: () => string): boolean {
  return /pre-commit\s+uninstall/i.test(m[0]) && /\bpre-commit\s+install\b/.test(`${line.slice(m.index)} ${next()}`)
}

// Words of a clause that rejects the switch-off after them ("instead of", "someone proposes ... as a fix"). Unlike
// `NEGATION`, no bare "not": "if it does not start, run setenforce 0" still orders it.

const REJECTED = new RegExp(
  String.raw`\b(?:instead\s+of|rather\s+than|(?:someone|somebody|people|a\s+colleague)\s+(?:proposes?|suggests?`
  + String.raw`|recommends?)|never|do\s+not|don['’]t|avoid`
  // "During bring-up you will see advice to run setenforce 0": what others advise, reported.
  + String.raw`|(?:see|find|read|get|hear)\s+(?:\w+\s+)?advice\s+to|(?:common|usual|typical|bad|old)\s+advice)\b`,
  'i',
)
const SECURITY_SERVICES = String.raw`(?:apparmor|auditd|firewalld|ufw|falcon-sensor|falcond|osqueryd|wazuh-agent`
  + String.raw`|clamav\w*`
  + String.raw`|clamd|sentinel\w*|mdatp|fail2ban|aide|crowdstrike|sysmon|defender|xprotect\w*|santa\w*|tetragon|falco)`

// Kubernetes admission policy engines.
const POLICY_ENGINES = 'gatekeeper|kyverno|kubewarden'

const CONTROL = String.raw`(?:the\s+|your\s+|all\s+|any\s+|every\s+)?(?:agent['’]s\s+|claude['’]s\s+)?`
  + String.raw`(?:sandbox(?:ing)?`
  + String.raw`|guardrails?|safety\s+(?:checks?|filters?|features?|mode|settings?|hooks?)|security\s+(?:checks?`
  + String.raw`|scan(?:ner|ning)?s?`
  + String.raw`|controls?|polic(?:y|ies)|hooks?|tools?|software|monitoring|agents?)|content\s+filter(?:s|ing)?`
  + String.raw`|permission\s+(?:checks?|prompts?|system)|confirmation\s+(?:prompts?|dialogs?|steps?)`
  + String.raw`|approval\s+prompts?`
  + String.raw`|antivirus|anti-virus|firewall|endpoint\s+protection|EDR|SELinux|AppArmor|Gatekeeper|SIP`
  + String.raw`|(?:Windows\s+|Microsoft\s+)?Defender|audit(?:ing|d|\s+logs?|\s+logging)|pre-commit\s+hooks?|git\s+hooks`
  + String.raw`|code\s+scanning|secret\s+scanning|push\s+protection|dependabot|codeql|enforcement|moderation`
  // The model's own safety behaviour, which a jailbreak switches off.
  + String.raw`|refusals?(?:\s+behaviou?rs?)?|safety\s+(?:guidelines|polic(?:y|ies)|rules|training|restrictions)`
  + String.raw`|content\s+polic(?:y|ies)|ethical\s+(?:guidelines|constraints))\b`

/** Sandboxes, guardrails, permission prompts, scanners and audit trails switched off (OWASP LLM06, ATLAS AML.T0054). */
// Switching a control off: an order is an error, a documented flag or feature a warning (two patterns, one match).
const SWITCH_OFF_ANCHOR = 'disable|turn off|switch off|bypass|deactivate|circumvent|get around|skip|ignore|suspend'
const SWITCH_OFF = new RegExp(
  String.raw`\b(?:disable|turn\s+off|switch\s+off|bypass|deactivate|circumvent|get\s+around|skip|ignore|suspend)\s+`
  + CONTROL,
  'i',
)

export const controlDisablement: RuleModule = {
  meta: {
    id: 'security_control_disablement',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-693',
    description:
      'Turns off a security control: the agent\'s sandbox or permission prompts, allow-all tool settings, SELinux, '
      + 'firewalls and endpoint protection, security scanners, audit logs and shell history; TLS verification off is '
      + 'a warning.',
    hint:
      'A skill works inside the user\'s controls. Ask the user to grant the one permission the task needs instead of '
      + 'switching protections off.',
  },
  patterns: [
    {
      // A WordPress site's firewall, malware scanner or audit log plugin switched off by WP-CLI.
      anchor: 'plugin',
      re: new RegExp(
        String.raw`\bplugin\s+(?:deactivate|delete|uninstall)\b[^\n;&|]*?\b(?:wordfence|sucuri-scanner`
        + String.raw`|ithemes-security[\w-]*|better-wp-security|wp-security-audit-log|all-in-one-wp-security[\w-]*`
        + String.raw`|jetpack-protect|wp-cerber|defender-security|malcare-security|solid-security[\w-]*)\b`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'switches off the site\'s security plugins (firewall, malware scanner or audit log)',
    },
    {
      // PyTorch's safe loading switched off for every load: the variable that forces it off, or `torch.load`
      // replaced by a wrapper that passes `weights_only=False` (a pickle in a checkpoint then runs its code).
      anchor: 'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD|torch.load',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\bTORCH_FORCE_NO_WEIGHTS_ONLY_LOAD["']?\s*\]?\s*[=:]\s*["']?(?:1|true)\b|\btorch\.load\s*=(?!=)[^\n]*weights_only/i,
      langs: [...CODE, 'prose'],
      view: 'noComments',
      message: 'switches PyTorch\'s safe loading off for every checkpoint (pickles in them run code)',
    },
    {
      // One load that runs a checkpoint's or a repository's code: reviewed in context (real models need it).
      anchor: 'weights_only|trust_remote_code|allow_pickle',
      re: /\b(?:weights_only["']?\s*[=:]\s*False|trust_remote_code["']?\s*[=:]\s*True|allow_pickle\s*=\s*True)\b/,
      langs: [...CODE, 'prose'],
      view: 'noComments',
      severity: 'warning',
      message: 'loads a model or array in a way that runs the code it carries',
    },
    {
      anchor: 'dangerously|bypassPermissions|danger-full-access|approval',
      re: new RegExp(BYPASS, 'i'),
      langs: CODE,
      message: 'runs the agent without its permission prompts or sandbox',
    },
    {
      anchor: 'dangerously|bypassPermissions|danger-full-access|approval',
      re: new RegExp(BYPASS, 'i'),
      langs: ['prose'],
      message: 'tells the agent to run without its permission prompts or sandbox',
      accept: (m, line) => positive(m, line)
        && IMPERATIVE.test(line.slice(line.slice(0, m.index).search(/[^.;:!?]*$/))),
    },
    {
      anchor: 'dangerously|bypassPermissions|danger-full-access|approval',
      re: new RegExp(BYPASS, 'i'),
      langs: ['prose'],
      message: 'mentions a setting that runs an agent without its permission prompts or sandbox',
      severity: 'warning',
    },
    {
      anchor: 'allow|autoApprove|alwaysAllow|auto_approve|trust_all',
      re: new RegExp(
        String.raw`["']?(?:allow|allowed_?tools|autoApprove|alwaysAllow|auto_approve)["']?\s*[:=]\s*\[\s*`
        + String.raw`(?:["'](?:[^"'\n]*,\s*)?)?["']?(?:\*|Bash\(\*\)|Bash\(\s*\*\s*:\s*\*\)|Bash|Shell\(\*\)|mcp__\*`
        + String.raw`|Write\(\*\)`
        + String.raw`|Edit\(\*\)|WebFetch\(\*\))["']?\s*[,\]]|["']?(?:autoApprove|alwaysAllow|auto_approve`
        + String.raw`|trust_all_tools`
        + String.raw`|allow_all)["']?\s*[:=]\s*["']?(?:true|yes|all|\*)\b`,
        'i',
      ),
      langs: CODE,
      message: 'grants the agent every tool without asking (allow-all permissions)',
    },
    {
      // A payment run's own controls: a second approver, sanctions and fraud screening, switched off.
      anchor: 'approval|dual_approval|dualApproval|require_approval|requireApproval|four_eyes|fourEyes|sanctions'
        + '|aml_|amlCheck|amlScreening|fraud_|fraudCheck|fraudScreening|kyc_|kycCheck',
      re: new RegExp(
        String.raw`\b(?:dual_?approval|four_?eyes|approval_?required|require_?approval|sanctions_?screening`
        + String.raw`|aml_?(?:check|screening)|fraud_?(?:check|screening)|kyc_?check)["']?\s*[:=]\s*["']?`
        + String.raw`(?:false|off|skip|disabled?|none|no)\b`,
        'i',
      ),
      langs: CODE,
      message: 'switches off a payment control (second approval, sanctions or fraud screening)',
    },
    {
      // Claude Code's switch that approves every MCP server a checked-out project's `.mcp.json` lists, unasked.
      anchor: 'enableAllProjectMcpServers',
      re: /\benableAllProjectMcpServers["']?\s*[:=]\s*true\b/,
      langs: CODE,
      message: 'approves every MCP server a project lists without asking',
    },
    {
      anchor: 'sandbox|guardrail|safety|enforce|moderation|content|DISABLE_',
      re: new RegExp(
        String.raw`["']?\b(?:sandbox(?:_?mode|_?enabled)?|enable_?sandbox|guardrails?(?:_?enabled)?`
        + String.raw`|safety_?(?:checks?|mode`
        + String.raw`|filters?|enabled)|enforce(?:ment)?(?:_?mode)?|moderation|content_?filter(?:ing)?`
        + String.raw`|policy_?enforcement)`
        + String.raw`["']?\s*[:=]\s*["']?(?:false|off|0|disabled|none|permissive)\b`
        + String.raw`|"sandbox"\s*:\s*\{\s*"enabled"\s*:\s*false`
        + String.raw`|\bDISABLE_(?:GUARDRAILS|SAFETY\w*|SANDBOX|SECURITY\w*|PERMISSIONS?)\s*=\s*["']?(?:1|true|yes)\b`,
        'i',
      ),
      langs: CODE,
      message: 'switches a sandbox, guardrail or enforcement setting off',
    },
    {
      // A container that is no sandbox: the host's root mounted in it, its seccomp or AppArmor profile off, every
      // capability added. `--privileged` alone is how fuzzers and emulators run, and is left to review.
      anchor: String.raw`\/:\/|seccomp|apparmor|label=|label:|cap-add|cap_add`,
      re: new RegExp(
        String.raw`(?:(?:^|\s)(?:-v|--volume)[=\s]+["']?|^\s*-\s+["']?)\/:\/\w|\bseccomp[=:]\s*["']?unconfined\b`
        + String.raw`|\bapparmor[=:]\s*["']?unconfined\b|\blabel[=:]\s*["']?disable\b|--cap-add[=\s]+["']?ALL\b`
        + String.raw`|\bcap_add:\s*\[?\s*["']?ALL\b`,
        'i',
      ),
      langs: ALL,
      message: 'turns a container\'s isolation off (the host\'s root mounted, seccomp or AppArmor unconfined, '
        + 'every capability)',
    },
    {
      // Office's macro and Protected View settings (a `.reg` file, `reg add`, `Set-ItemProperty`): every macro runs,
      // code may rewrite the VBA project, downloaded files open outside the sandbox.
      anchor: 'VBAWarnings|AccessVBOM|Disable|BlockContentExecutionFromInternet',
      re: new RegExp(
        String.raw`\b(?:VBAWarnings["']?\s*(?:=|\s)\s*(?:dword:0*|-Value\s+|\/d\s+)?1\b`
        + String.raw`|AccessVBOM["']?\s*(?:=|\s)\s*(?:dword:0*|-Value\s+|\/d\s+)?1\b`
        + String.raw`|Disable(?:InternetFiles|Attachements|Attachments|UnsafeLocations)InPV["']?\s*(?:=|\s)\s*`
        + String.raw`(?:dword:0*|-Value\s+|\/d\s+)?1\b`
        + String.raw`|BlockContentExecutionFromInternet["']?\s*(?:=|\s)\s*(?:dword:0*|-Value\s+|\/d\s+)?0\b)`,
        'i',
      ),
      langs: ALL,
      message: 'turns off Office macro security or Protected View',
    },
    // Rejected in its clause ("instead of running setenforce 0", "someone proposes setenforce 0 as a fix"): a warning.
    ...bySeverity({
      anchor: 'setenforce|SELINUX=|ufw|iptables|aa-|apparmor_parser|csrutil|spctl|netsh|MpPreference|systemctl|service',
      re: new RegExp(
        String.raw`\bsetenforce\s+(?:0|permissive)\b|\bSELINUX=(?:disabled|permissive)\b|\bufw\s+disable\b`
        + String.raw`|\biptables\s+(?:-F|--flush)\b|\biptables\s+-P\s+INPUT\s+ACCEPT\b|\baa-(?:teardown|disable`
        + String.raw`|complain)\b`
        + String.raw`|\bcsrutil\s+disable\b|\bspctl\s+--master-disable\b`
        + String.raw`|\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off\b|\bSet-MpPreference\b[^\n]*-Disable\w+\s+\$?(?`
        + String.raw`:true|1)\b`
        + String.raw`|\bAdd-MpPreference\b[^\n]*-Exclusion(?:Path|Process)\b`
        + String.raw`|\b(?:systemctl|service)\s+(?:stop|disable|mask|kill)\s+(?:--now\s+)?${SECURITY_SERVICES}\b`,
        'i',
      ),
      langs: ALL,
      message: 'turns off an operating-system security control',
    }, (m, line) => (REJECTED.test(clauseBefore(m, line)) ? 'warning' : 'error')),
    {
      // AppArmor's profile removed (`-R`; `-r` replaces, that is reloads, a profile): case matters.
      anchor: 'apparmor_parser',
      re: /\bapparmor_parser\s+(?:-[a-zA-Z]*R[a-zA-Z]*\b|--remove\b)/,
      langs: ALL,
      message: 'turns off an operating-system security control',
    },
    {
      // A cluster's admission policy: its webhooks deleted, its controller scaled to nothing, every namespace
      // labelled privileged.
      anchor: 'kubectl',
      re: new RegExp(
        String.raw`\bkubectl\b[^\n|;&]*\bdelete\s+(?:validating|mutating)webhookconfigurations?\b[^\n|;&]*`
        + String.raw`(?:${POLICY_ENGINES}|opa|policy)`
        + String.raw`|\bkubectl\b[^\n|;&]*\blabel\b[^\n|;&]*pod-security\.kubernetes\.io\/enforce=privileged`
        + String.raw`|\bkubectl\b(?=[^\n|;&]*(?:${POLICY_ENGINES}|falco))[^\n|;&]*\bscale\b`
        + String.raw`[^\n|;&]*--replicas[=\s]0\b`,
        'i',
      ),
      langs: ALL,
      message: 'switches a cluster\'s admission policy off (its webhooks deleted, its controller stopped)',
    },
    {
      // A database's own audit trail: pgaudit and statement logging set to none, audit triggers disabled,
      // audit tables emptied.
      anchor: 'pgaudit|log_statement|disable trigger|truncate|audit',
      re: new RegExp(
        String.raw`\bpgaudit\.log\s*(?:=|TO)\s*'none'|\blog_statement\s*(?:=|TO)\s*'none'`
        + String.raw`|\bDISABLE\s+TRIGGER\s+[\w."]*audit\w*|\bTRUNCATE\s+(?:TABLE\s+)?[\w."]*audit[\w."]*`
        + String.raw`|\bDROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?[\w."]*audit\w*`,
        'i',
      ),
      langs: ALL,
      message: 'switches a database\'s audit trail off or empties it',
    },
    {
      // A service's own audit trail: Keycloak's login and admin events, Elasticsearch's audit log, and the
      // audit indices deleted through its API.
      anchor: 'eventsenabled|audit|AdminAuditLogConfig',
      re: new RegExp(
        String.raw`\b(?:adminEventsEnabled|eventsEnabled|xpack\.security\.audit\.enabled)["']?\s*[:=]\s*["']?false\b`
        // Microsoft 365's unified audit log and mailbox auditing.
        + String.raw`|\b(?:Set-AdminAuditLogConfig\b[^\n|]*-UnifiedAuditLogIngestionEnabled`
        + String.raw`|Set-Mailbox\b[^\n|]*-AuditEnabled):?\s*\$?false\b`
        + String.raw`|\b(?:curl|http|Invoke-RestMethod|irm)\b[^\n|;&]*(?:-X\s*|--request[=\s]+|-Method\s+)DELETE\b`
        + String.raw`[^\n|;&]*\/[^\s"'/]*?\baudit[\w.*-]*`,
        'i',
      ),
      langs: ALL,
      message: 'switches a service\'s audit events off or deletes its audit records',
    },
    {
      // An identity provider, broker or scheduler left open to anyone: brute-force protection off, the anonymous
      // user a superuser, every client allowed where no ACL says otherwise, every ACL removed, an API without auth.
      anchor: String.raw`bruteforceprotected|anonymous|allow\.everyone|kafka-acls|backend\.default`
        + String.raw`|Update-MgPolicyIdentitySecurityDefault|Update-MgIdentityConditionalAccess`,
      re: new RegExp(
        String.raw`\bbruteForceProtected["']?\s*[:=]\s*["']?false\b|\bsuper\.users\s*=[^\n]*\bUser:ANONYMOUS\b`
        // Airflow's REST API with the backend that lets every request in.
        + String.raw`|\bauth_backends?["']?\s*[:=]\s*["']?airflow\.api\.auth\.backend\.default\b`
        // Entra ID's security defaults or its conditional access policies (where MFA is required) switched off.
        + String.raw`|\bUpdate-MgPolicyIdentitySecurityDefaultEnforcementPolicy\b[^\n|]*-IsEnabled:?\s*\$?false\b`
        + String.raw`|\bUpdate-MgIdentityConditionalAccessPolicy\b[^\n|]*-State\s+["']?disabled\b`
        + String.raw`|\ballow\.everyone\.if\.no\.acl\.found\s*=\s*true\b`
        + String.raw`|\bkafka-acls(?:\.sh)?\b(?=[^\n]*--remove\b)(?=[^\n]*--force\b)[^\n]*--topic[=\s]+["']?\*`,
        'i',
      ),
      langs: ALL,
      message: 'opens an identity provider, broker or API to anyone (brute-force protection, ACLs, superusers, auth)',
    },
    {
      anchor: 'protection',
      re: /\bgh\s+api\b[^\n|;&]*(?:-X\s*|--method[=\s]+)DELETE\b[^\n|;&]*\/branches\/[^\s/]+\/protection\b/i,
      langs: ALL,
      message: 'removes a branch\'s protection (its required reviews or checks)',
    },
    {
      anchor: String.raw`auditctl|/var/log|history\s+-c|HISTFILE|HISTSIZE|\.bash_history|\.zsh_history|wevtutil`
        + String.raw`|Clear-EventLog|journalctl|\.claude/|\.codex/`,
      re: new RegExp(
        String.raw`\bauditctl\s+-(?:e\s*0|D)\b|\b(?:rm|shred|truncate|unlink)\b[^\n|;&]*\/var\/log\b`
        + String.raw`|(?:^|[\s;&|])(?:cat\s+\/dev\/null\s*)?>\s*\/var\/log\/\S+|\bhistory\s+-c\b|\bunset\s+HISTFILE\b`
        + String.raw`|\bHISTFILE=\/dev\/null\b|\bHISTSIZE=0\b|\b(?:rm|shred|truncate)\b[^\n|;&]*\.(?:bash`
        + String.raw`|zsh)_history\b`
        + String.raw`|\bln\s+-sf?\s+\/dev\/null\s+\S*\.(?:bash|zsh)_history\b|\bwevtutil(?:\.exe)?\s+cl\b`
        + String.raw`|\bClear-EventLog\b`
        // Keeping a week of logs is housekeeping; keeping a second of them is wiping them.
        + String.raw`|\bjournalctl\b[^\n|;&]*--vacuum-(?:time[=\s]+\d+(?:s|sec|seconds?|m|min|minutes?)?\b`
        + String.raw`|size[=\s]+\d+[KB]?\b|files[=\s]+[01]\b)`
        + String.raw`|\b(?:rm|shred)\s+-\w*\s+[^\n|;&]*~\/\.(?:claude\/(?:projects`
        + String.raw`|history\.jsonl|logs)`
        + String.raw`|codex\/(?:sessions|history\.jsonl|log))`,
        'i',
      ),
      langs: ALL,
      message: 'wipes audit logs, shell history or agent transcripts',
    },
    {
      // `npm audit || true`, `trivy fs . || exit 0`: the scanner runs and its verdict is thrown away; `if: false`
      // on a job its comment calls a scan. Common in CI that only reports, so a warning.
      anchor: String.raw`\|\|\s*(?:true|exit\s+0|:)|if:\s*false`,
      re: new RegExp(
        String.raw`\b(?:(?:npm|pnpm|yarn|bun)\s+audit|pip-audit|safety\s+check|trivy|gitleaks|semgrep|snyk\s+test`
        + String.raw`|bandit|grype|osv-scanner|govulncheck|cargo\s+audit|trufflehog|checkov|tfsec)\b[^\n|]*`
        + String.raw`\|\|\s*(?:true|exit\s+0|:)(?:\s|$)`
        + String.raw`|^\s*if:\s*false\b[^\n]*#[^\n]*\b(?:CodeQL|Trivy|Snyk|Semgrep|gitleaks|security|scan\w*|audit)\b`,
        'i',
      ),
      langs: ['sh', 'text', 'prose'],
      message: 'ignores a security scanner\'s verdict or switches its CI job off',
      severity: 'warning',
    },
    {
      ...REMOVES_SCANNER,
      message: 'removes a security scanner or a commit hook',
      accept: (m, line, next) => !reinstalls(m, line, next) && !oneHook(m, line),
    },
    {
      ...REMOVES_SCANNER,
      message: 'removes a commit hook (one named hook, as uninstall steps do)',
      severity: 'warning',
      accept: (m, line) => oneHook(m, line),
    },
    {
      anchor: 'guidelines|policy|policies|guardrails|refusal|restrictions|rules',
      re: new RegExp(
        String.raw`\b(?:safety\s+(?:guidelines|polic(?:y|ies)|rules|restrictions|filters)|content\s+polic(?:y|ies)`
        + String.raw`|guardrails|ethical\s+guidelines|refusals?(?:\s+behaviou?rs?)?)\b[^.\n]{0,40}?\b(?:are|is)\s+`
        + String.raw`(?:now\s+|hereby\s+|temporarily\s+)?(?:suspended|disabled|lifted|waived|void|switched\s+off`
        + String.raw`|turned\s+off|not\s+in\s+effect)\b`,
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'declares the agent\'s safety rules suspended',
      accept: positive,
    },
    {
      anchor: SWITCH_OFF_ANCHOR,
      re: SWITCH_OFF,
      langs: ['prose', 'text'],
      message: 'tells the agent to switch a security control off',
      accept: (m, line) => positive(m, line) && !describes(m, line),
    },
    {
      anchor: SWITCH_OFF_ANCHOR,
      re: SWITCH_OFF,
      langs: ['prose', 'text'],
      message: 'describes switching a security control off (a documented flag or feature)',
      severity: 'warning',
      accept: (m, line) => positive(m, line) && describes(m, line),
    },
    {
      // Headless CLIs need `--yolo` to use tools at all: a fact to review, not an attack by itself.
      anchor: 'confirmation|approval|permission|--no-verify|HUSKY=0|no-sandbox|disable-web-security|yolo|to confirm'
        + '|to approve',
      re: new RegExp(
        String.raw`--yolo\b|`
        + String.raw`\b(?:do\s+not|don['’]t|never|no\s+need\s+to)\s+(?:ask|wait`
        + String.raw`|prompt)\s+(?:the\s+user\s+)?for\s+(?:any\s+)?`
        + String.raw`(?:confirmation|approval|permission)|\bgit\s+(?:commit|push)\b[^\n]*\s--no-verify\b|\bHUSKY=0\b`
        + String.raw`|\b(?:do\s+not|don['’]t|never)\s+ask\s+(?:the\s+user\s+)?to\s+(?:confirm|approve)\b`
        + String.raw`|--no-sandbox\b|--disable-web-security\b`,
        'i',
      ),
      langs: ALL,
      message: 'skips a confirmation, a hook or a browser sandbox',
      severity: 'warning',
    },
    {
      // Verification off for everything the user runs later, not for one command: the user's git, npm, yarn or curl
      // configuration.
      anchor: 'git config|npm config|yarn config|pnpm config|insecure',
      re: new RegExp(
        String.raw`\bgit\s+config\s+(?:--global|--system)\s+http\.sslVerify\s+(?:false|0)\b`
        + String.raw`|\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:-g\s+|--global\s+)?strict-ssl\s+false\b`
        + String.raw`|\binsecure\b["']?\s*>>?\s*["']?(?:~|\$HOME|\$\{HOME\})\/\.curlrc\b`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'turns TLS certificate verification off for every later command (the user\'s configuration)',
    },
    {
      anchor: String.raw`insecure|\s-k\b|no-check-certificate|NODE_TLS_REJECT|rejectUnauthorized|verify\s*=\s*False`
        + String.raw`|PYTHONHTTPSVERIFY|GIT_SSL_NO_VERIFY|sslVerify|strict-ssl|_create_unverified_context|CERT_NONE`
        + String.raw`|InsecureSkipVerify|enableStrictSsl|verify_ssl`
        + String.raw`|check_hostname`,
      re: new RegExp(
        String.raw`\bcurl\b[^\n]{0,200}?\s(?:-k|--insecure)\b|\bwget\b[^\n]{0,200}?--no-check-certificate\b`
        + String.raw`|NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*['"]?0|rejectUnauthorized\s*:\s*false`
        + String.raw`|\bverify\s*=\s*False\b|PYTHONHTTPSVERIFY\s*=\s*['"]?0|GIT_SSL_NO_VERIFY\s*=\s*['"]?(?:1|true)`
        + String.raw`|http\.sslVerify\s*[\s:=]\s*["']?false|strict-ssl\s*[=\s]\s*false|_create_unverified_context`
        + String.raw`|\bCERT_NONE\b|\bverify_ssl["']?\s*[:=]\s*["']?false\b`
        + String.raw`|\benableStrictSsl["']?\s*:\s*false`
        + String.raw`|InsecureSkipVerify\s*:\s*true|check_hostname\s*=\s*False`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'turns TLS certificate verification off',
      severity: 'warning',
    },
    {
      // The JVM's and Android's forms: a trust manager that accepts every chain, a verifier that accepts every
      // host name, and cleartext HTTP allowed for the whole app.
      anchor: 'hostnameVerifier|checkServerTrusted|ALLOW_ALL_HOSTNAME|cleartextTraffic|TrustAllCerts|trustAll',
      re: new RegExp(
        String.raw`\bhostnameVerifier\s*(?:\{\s*\w+\s*,\s*\w+\s*->\s*true\s*\}|\(\s*\(?\s*\w+\s*,\s*\w+\s*\)?\s*->`
        + String.raw`\s*true\b)|\bcheckServerTrusted\s*\([^)]*\)\s*(?::\s*Unit\s*)?(?:\{\s*\}|=\s*Unit\b)`
        + String.raw`|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\b(?:usesC|c)leartextTraffic(?:Permitted)?\s*=\s*["']true["']`
        + String.raw`|\b(?:TrustAllCerts|trustAllCerts|trustAll(?:Certificates|Manager)?)\s*(?:\(|=|:)`,
      ),
      langs: ALL,
      view: 'noComments',
      message: 'accepts every certificate or host name, or allows cleartext HTTP (TLS off)',
      severity: 'warning',
    },
  ],
  // Orders to switch a control off, wrapped over two lines of prose.
  visitSkill: skill => wrappedProse(skill, wrapped(), 'security_control_disablement'),
}

let orders: readonly LinePattern[] | null = null
function wrapped(): readonly LinePattern[] {
  return (orders ??= controlDisablement.patterns.filter(p => p.anchor === SWITCH_OFF_ANCHOR
    || p.message.startsWith('declares')))
}
prepareWrapped(wrapped())
