"""Discord's rate limits as the fake enforces them: per-route buckets, a global limit, 429 answers.

Every answer carries the ``X-RateLimit-*`` headers of its bucket (discord.py waits on them before
its next request when ``Remaining`` is 0); a request over a bucket is answered 429 with the scope
``user``, over the global limit (50 requests a second per bot) 429 with ``global: true`` and
``X-RateLimit-Global``. Interaction callbacks are outside the global limit, as on Discord. The
numbers are Discord's documented or commonly observed ones (5 messages per 5 s per channel...);
Discord may change them, which is why a bot must read the headers rather than assume the numbers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fake_discord.clock import Clock

GLOBAL_PER_SECOND = 50


@dataclass(frozen=True)
class Rule:
    """Requests `method pattern` share one bucket per value of the pattern's ``major`` group."""

    method: str
    pattern: str
    limit: int
    window: float
    name: str
    global_limit: bool = True


#: The routes the bot uses; anything else falls in a generous per-route bucket.
RULES = (
    Rule("POST", r"/interactions/(?P<major>\d+)/[^/]+/callback", 1000, 1.0, "callback", global_limit=False),
    Rule("POST", r"/channels/(?P<major>\d+)/messages", 5, 5.0, "channel-messages"),
    Rule("PATCH", r"/channels/(?P<major>\d+)/messages/\d+", 5, 5.0, "channel-message-edit"),
    Rule("DELETE", r"/channels/(?P<major>\d+)/messages/\d+", 5, 1.0, "channel-message-delete"),
    Rule("PUT", r"/channels/(?P<major>\d+)/(messages/)?pins/\d+", 5, 5.0, "channel-pins"),
    Rule("*", r"/webhooks/\d+/(?P<major>[^/]+)(/.*)?", 5, 2.0, "interaction-webhook", global_limit=False),
    # a server's commands are counted per server (guild_id is a top-level resource), the global ones per application
    Rule("PUT", r"/applications/\d+/guilds/(?P<major>\d+)/commands", 2, 20.0, "guild-commands-bulk"),
    Rule("PUT", r"/applications/(?P<major>\d+)/commands", 2, 20.0, "commands-bulk"),
)
DEFAULT = Rule("*", r"(?P<major>)/.*", 50, 1.0, "default")


@dataclass
class Bucket:
    limit: int
    window: float
    hash: str
    used: int = 0
    resets_at: float = 0.0


@dataclass
class Refusal:
    """A 429: its body, and whether it is the global limit."""

    retry_after: float
    scope: str  # user, global or shared
    code: int = 0
    message: str = "You are being rate limited."

    def body(self) -> dict[str, Any]:
        return {"message": self.message, "retry_after": round(self.retry_after, 3), "global": self.scope == "global",
                "code": self.code}


@dataclass
class RateLimiter:
    clock: Clock
    rules: tuple[Rule, ...] = RULES
    global_per_second: int = GLOBAL_PER_SECOND
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    _global_used: int = 0
    _global_resets_at: float = 0.0

    def _rule(self, method: str, path: str) -> tuple[Rule, str]:
        for rule in self.rules:
            found = re.fullmatch(rule.pattern, path)
            if found and rule.method in ("*", method):
                return rule, found["major"]
        return DEFAULT, method + " " + re.sub(r"/\d+", "/:id", path)

    def take(self, method: str, path: str) -> tuple[dict[str, str], Refusal | None]:
        """Count one request: the headers of its bucket, and a refusal when a limit is spent.
        A refused request is not counted, as on Discord."""
        now = self.clock()
        rule, major = self._rule(method, path)
        bucket = self.buckets.get((rule.name, major))
        if bucket is None:
            digest = hashlib.sha1(rule.name.encode()).hexdigest()[:16]
            bucket = self.buckets[(rule.name, major)] = Bucket(rule.limit, rule.window, digest)
        if now >= bucket.resets_at:
            bucket.used, bucket.resets_at = 0, now + bucket.window
        if rule.global_limit and now >= self._global_resets_at:
            self._global_used, self._global_resets_at = 0, now + 1.0
        refusal = None
        if rule.global_limit and self._global_used >= self.global_per_second:
            refusal = Refusal(self._global_resets_at - now, "global")
        elif bucket.used >= bucket.limit:
            refusal = Refusal(bucket.resets_at - now, "user")
        else:
            bucket.used += 1
            if rule.global_limit:
                self._global_used += 1
        return self.headers(bucket, now, refusal), refusal

    @staticmethod
    def headers(bucket: Bucket, now: float, refusal: Refusal | None) -> dict[str, str]:
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset": f"{bucket.resets_at:.3f}",
            "X-RateLimit-Reset-After": f"{max(0.0, bucket.resets_at - now):.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }
        if refusal is not None:
            headers.update(refusal_headers(refusal))
        return headers


def refusal_headers(refusal: Refusal) -> dict[str, str]:
    """What a 429 adds: Retry-After, the scope, ``Via`` (discord.py takes a 429 without it for a
    Cloudflare ban) and, for the global limit, ``X-RateLimit-Global``."""
    headers = {"Retry-After": str(max(1, round(refusal.retry_after))), "X-RateLimit-Scope": refusal.scope,
               "Via": "1.1 google"}
    if refusal.scope == "global":
        headers["X-RateLimit-Global"] = "true"
    return headers
