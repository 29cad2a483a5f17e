"""Sealing what an export must carry but nobody may read: a secret seed, a sealed order's payload.

SpaceBlast deals its secret powers from the game's seed, and its orders stay secret until the turn
resolves; an export made meanwhile must still import back as the same game. So it carries them
sealed: encrypted under the bot's own key (`Store.bot_key`) with a random nonce — a keystream of
HMAC-SHA256 blocks XORed in, then the whole authenticated (encrypt-then-MAC) — so the file goes
back into this bot by `/gm import`, which opens them, tells nobody anything, and a hand edit cannot
slip another seed or order past the check.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from typing import Any

NONCE_BYTES, TAG_BYTES, BLOCK = 16, 16, 32
#: the name of the key in the bot's keys
KEY_NAME = "export_seal"
#: the key of a sealed payload in an exported log entry
SEALED = "sealed"
#: sealed payloads are padded to a multiple of this many bytes: the length of a sealed order must
#: not tell how long the order is (``brake`` against ``left missile mine``)
PAD_TO = 256


def _stream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (hmac.new(key, b"pad" + nonce + n.to_bytes(4, "big"), hashlib.sha256).digest()
              for n in range(-(-length // BLOCK)))
    return b"".join(blocks)[:length]


def _tag(key: bytes, nonce: bytes, body: bytes) -> bytes:
    return hmac.new(key, b"tag" + nonce + body, hashlib.sha256).digest()[:TAG_BYTES]


def seal(key: bytes, data: bytes) -> str:
    """`data` sealed under `key`, as printable text."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    body = bytes(a ^ b for a, b in zip(data, _stream(key, nonce, len(data)), strict=True))
    return base64.urlsafe_b64encode(nonce + body + _tag(key, nonce, body)).decode("ascii")


def unseal(key: bytes, token: Any) -> bytes | None:
    """What `seal` sealed under `key`; None when the text was sealed under another key (another
    bot's) or was changed."""
    if not isinstance(token, str):
        return None
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii"))
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        return None
    nonce, body, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES:-TAG_BYTES], raw[-TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(key, nonce, body)):
        return None
    return bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)), strict=True))


def seal_seed(key: bytes, seed: int) -> str:
    return seal(key, seed.to_bytes(8, "big"))


def unseal_seed(key: bytes, token: Any) -> int | None:
    data = unseal(key, token)
    return int.from_bytes(data, "big") if data is not None and len(data) == 8 else None


def seal_payload(key: bytes, payload: dict[str, Any]) -> dict[str, str]:
    """A sealed log entry's payload as an export carries it, padded with spaces (which JSON reads
    past) so that every sealed payload of a usual size is as long as any other."""
    data = json.dumps(payload, sort_keys=True).encode()
    return {SEALED: seal(key, data + b" " * (-len(data) % PAD_TO))}


def unseal_payload(key: bytes, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The payload `seal_payload` sealed; the payload itself when it is not sealed; None when it
    does not open."""
    if set(payload) != {SEALED}:
        return payload
    data = unseal(key, payload[SEALED])
    if data is None:
        return None
    opened = json.loads(data)
    return opened if isinstance(opened, dict) else None
