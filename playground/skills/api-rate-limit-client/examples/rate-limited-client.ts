// A read-only API client that honours HTTP 429/503 Retry-After and retries
// with capped exponential backoff and full jitter. Node.js 20+ (global fetch).

export interface RetryPolicy {
  maxAttempts: number // including the first try
  baseDelayMs: number
  maxDelayMs: number
  maxRetryAfterMs: number // a server asking for longer than this means "give up"
  attemptTimeoutMs: number
  deadlineMs: number // budget for the whole operation
}

export const DEFAULT_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  attemptTimeoutMs: 10_000,
  deadlineMs: 60_000,
}

const RETRY_ALWAYS = new Set([429, 503])
const RETRY_IF_IDEMPOTENT = new Set([408, 500, 502, 504])
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/

export class RateLimitError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly attempts: number,
    readonly retryAfterMs: number | null,
  ) {
    super(message)
    this.name = 'RateLimitError'
  }
}

/** Retry-After is either delta-seconds or an HTTP-date (RFC 9110, 10.2.3). */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  if (!IMF_FIXDATE.test(trimmed)) return null // rejects `-3`, `1.5`, `10s`
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return null
  return Math.max(0, at - now)
}

/** Full jitter: uniform over [0, min(cap, base * 2^attempt)]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  return Math.floor(random() * ceiling)
}

export interface ClientOptions {
  baseUrl: string // fixed origin: callers choose paths, never hosts (CWE-918)
  token: string
  policy?: Partial<RetryPolicy>
  random?: () => number // injectable for deterministic tests
  sleep?: (ms: number) => Promise<void>
  fetchImpl?: typeof fetch
}

export class RateLimitedClient {
  private readonly origin: URL
  private readonly policy: RetryPolicy
  private readonly random: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly fetchImpl: typeof fetch

  constructor(private readonly options: ClientOptions) {
    this.origin = new URL(options.baseUrl)
    this.policy = { ...DEFAULT_POLICY, ...options.policy }
    this.random = options.random ?? Math.random
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.fetchImpl = options.fetchImpl ?? fetch
  }

  /** GET a JSON resource; path segments are encoded so they cannot change the host. */
  async getJson<T>(segments: string[], query: Record<string, string> = {}): Promise<T> {
    const url = new URL(this.origin)
    url.pathname = [url.pathname.replace(/\/$/, ''), ...segments.map(encodeURIComponent)].join('/')
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)

    const started = Date.now()
    let lastStatus: number | null = null
    let lastRetryAfter: number | null = null
    let attempts = 0

    for (let attempt = 0; attempt < this.policy.maxAttempts; attempt++) {
      attempts = attempt + 1
      let response: Response | null = null
      try {
        response = await this.fetchImpl(url, {
          headers: { accept: 'application/json', authorization: `Bearer ${this.options.token}` },
          redirect: 'manual',
          signal: AbortSignal.timeout(this.policy.attemptTimeoutMs),
        })
      } catch {
        // Network error or per-attempt timeout: GET is idempotent, so retry.
        lastStatus = null
      }

      if (response?.ok) return (await response.json()) as T
      if (response) {
        lastStatus = response.status
        const retryable = RETRY_ALWAYS.has(response.status) || RETRY_IF_IDEMPOTENT.has(response.status)
        if (!retryable) {
          throw new RateLimitError(`GET ${url.pathname} failed with ${response.status}`, response.status, attempts, null)
        }
      }

      lastRetryAfter = parseRetryAfter(response?.headers.get('retry-after') ?? null, Date.now())
      if (lastRetryAfter !== null && lastRetryAfter > this.policy.maxRetryAfterMs) break
      const wait = Math.max(backoffDelay(attempt, this.policy, this.random), lastRetryAfter ?? 0)
      const remaining = this.policy.deadlineMs - (Date.now() - started)
      if (attempt + 1 >= this.policy.maxAttempts || wait >= remaining) break

      // Log method, path and status only: never headers or tokens (CWE-532).
      console.warn(`retry ${attempt + 1} GET ${url.pathname} status=${lastStatus ?? 'network'} wait=${wait}ms`)
      await this.sleep(wait)
    }

    throw new RateLimitError(`GET ${url.pathname} gave up after ${attempts} attempt(s)`, lastStatus, attempts, lastRetryAfter)
  }
}

// Usage:
// const api = new RateLimitedClient({ baseUrl: 'https://api.example.com/v1/', token })
// const order = await api.getJson<{ id: string }>(['orders', orderId])
