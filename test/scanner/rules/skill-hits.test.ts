import type { SkillFile } from '../../../src/core/types'
import { describe, expect, it } from 'vitest'
import { splitAlternatives } from '../../../src/scanner/finder/prefilter'
import { SINK } from '../../../src/scanner/rules/exfil-flow'
import { hitLines } from '../../../src/scanner/rules/skill-hits'

const file = (text: string): SkillFile => ({ path: 'a.sh', absPath: '/a.sh', size: text.length, sha256: '', text })

/**
 * One or more lines per top-level alternative of the exfiltration sinks, in order. An alternative without a
 * leading `\b` matches inside a word, so its samples start inside one (`x...`).
 */
const SAMPLES: string[][] = [
  'curl wget nc ncat netcat socat telnet scp rsync sftp ftp mail mailx sendmail mutt xh httpie'.split(' '),
  ['https post url'],
  ['x/dev/tcp/10.0.0.1/80'],
  ['xopenssl s_client -connect h:443'],
  ['xInvoke-WebRequest u', 'xInvoke-RestMethod u'],
  ['iwr u', 'irm u'],
  ['xSend-MailMessage'],
  ['xNet.WebClient'],
  ['xUploadString('],
  ['xUploadFile('],
  ['$c = New-Object Net.Sockets.TcpClient($h, 443)', '[System.Net.Sockets.UdpClient]::new()'],
  ['requests.post(u)'],
  ['httpx.get(u)'],
  ['urlopen(u)'],
  ['Request(u)'],
  ['xHTTPSConnection(h)', 'xHTTPConnection(h)'],
  ['x.send(b)', 'x.sendall(b)', 'x.sendto(b)'],
  ['xsmtplib'],
  ['x.sendmail(a)'],
  ['aiohttp'],
  ['session.put(u)'],
  ['fetch(u)'],
  ['axios'],
  ['xXMLHttpRequest'],
  ['xsendBeacon(u)'],
  ['https.request(u)'],
  ['WebSocket'],
  ['got(u)'],
  ['xnodemailer'],
  ['x.sendMail(m)'],
  ['net.connect(7443, h)', 'net.createConnection(o)', 'net.Dial("tcp", a)', 'net.DialTimeout("tcp", a, t)'],
  ['tls.connect(o)', 'tls.Dial("tcp", a, c)'],
  ['http.Post(u, t, b)', 'http.PostForm(u, v)', 'http.NewRequest("PUT", u, b)'],
  ['xNet::HTTP.post_form(u, d)'],
  ['TCPSocket.new(h, p)'],
  ['x.send_message(msg)'],
  ['aws s3 cp f s3://b/', 'aws s3 sync . s3://b/'],
  ['gsutil -m cp f gs://b/'],
  ['gcloud storage cp f gs://b/'],
  ['az storage blob upload -f f'],
  ['azcopy copy f https://a.blob.core.windows.net/c'],
  ['rclone copy f remote:b'],
  ['s3cmd put f s3://b/'],
  ['gh gist create f'],
  ['git push origin main'],
  ['httr::POST(u, body = b)', 'httr2::req_perform(r)'],
  ['curl_fetch_memory(u, h)'],
  ['RCurl::getURL(u)'],
  ['postForm(u, a = b)'],
  ['HTTP.post(u, [], b)'],
  ['Downloads.request(u)'],
  ['$c = stream_context_create($o)'],
  ['curl_exec($ch)', 'curl_setopt($ch, CURLOPT_URL, $u)'],
  ['wp_remote_post($u, $a)', 'wp_safe_remote_request($u)'],
  ['$s = fsockopen($h, 80)'],
  ['file_get_contents($u, false, $ctx)'],
  ['await client.PostAsync(url, content)', 'http.PostAsJsonAsync(u, body)'],
  ['UnityWebRequest.Post(url, form)'],
]

describe('skill hits', () => {
  it('find a line for every sink the exfiltration rule knows (the unit prefilter may skip no sink)', () => {
    const alternatives = splitAlternatives(SINK.source)
    // A sink added to the rule needs its samples here, and its literal in the `sink` group.
    expect(SAMPLES).toHaveLength(alternatives.length)
    alternatives.forEach((alternative, i) => {
      for (const sample of SAMPLES[i]!) {
        expect(new RegExp(alternative, 'i').test(sample), `${alternative} ~ ${sample}`).toBe(true)
        expect(hitLines(file(`# setup\n${sample}\n`), 'sink'), sample).toEqual([{ line: 1, text: sample }])
      }
    })
  })

  it('find nothing on lines without a sink, and one entry per line', () => {
    expect(hitLines(file('echo done\nlet x = y\n'), 'sink')).toEqual([])
    expect(hitLines(file('curl a | curl b\n'), 'sink')).toEqual([{ line: 0, text: 'curl a | curl b' }])
  })
})
