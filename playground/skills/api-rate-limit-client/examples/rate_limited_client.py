"""Read-only JSON client with HTTP 429/503 Retry-After handling and
capped exponential backoff with full jitter. Standard library only."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from email.utils import parsedate_to_datetime

RETRY_ALWAYS = {429, 503}
RETRY_IF_IDEMPOTENT = {408, 500, 502, 504}


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait, from delta-seconds or an HTTP-date (RFC 9110, 10.2.3)."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def backoff(attempt: int, base: float = 0.5, cap: float = 30.0, rng: random.Random | None = None) -> float:
    """Full jitter: uniform over [0, min(cap, base * 2**attempt)]."""
    rng = rng or random.Random()
    return rng.uniform(0, min(cap, base * 2**attempt))


def get_json(base_url: str, segments: list[str], token: str, *, max_attempts: int = 5,
             max_retry_after: float = 60.0, deadline: float = 60.0, timeout: float = 10.0):
    # Fixed base URL, encoded segments: user input never picks the host (CWE-918).
    path = "/".join(urllib.parse.quote(s, safe="") for s in segments)
    url = base_url.rstrip("/") + "/" + path
    started = time.monotonic()
    last_status = None

    for attempt in range(max_attempts):
        request = urllib.request.Request(url, headers={
            "Accept": "application/json",
            "Authorization": f"Bearer {token}",
        })
        retry_after = None
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            last_status = error.code
            if error.code not in RETRY_ALWAYS | RETRY_IF_IDEMPOTENT:
                raise
            retry_after = parse_retry_after(error.headers.get("Retry-After"), time.time())
        except urllib.error.URLError:
            last_status = None  # network failure: GET is idempotent, retry

        if retry_after is not None and retry_after > max_retry_after:
            break  # the server is telling us to give up (CWE-400)
        wait = max(backoff(attempt), retry_after or 0.0)
        remaining = deadline - (time.monotonic() - started)
        if attempt + 1 >= max_attempts or wait >= remaining:
            break
        # Path and status only; never the Authorization header (CWE-532).
        print(f"retry {attempt + 1} GET /{path} status={last_status} wait={wait:.2f}s")
        time.sleep(wait)

    raise RuntimeError(f"GET /{path} gave up after {max_attempts} attempts (last status {last_status})")
