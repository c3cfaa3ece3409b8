"""Sealed drafts: a game opened by an address carries itself in its id, encrypted and signed by the server.

A GET that opens a deal stores nothing (docs/serve.md, "A GET stores nothing"), so the game it opens
must live somewhere until its first move stores it. A table of drafts in memory can be emptied by any
page that sends enough GETs (another site's images), and the player's draft then answers 404. So the
draft lives in its own id: its deal, mode and grade (a secret deal: its pool id, or the cards of a
random shuffle) sealed with a key that only this server process holds, and nothing is kept in memory.

The seal is HMAC-SHA256 (Python's ``hmac``), used twice with keys derived from one random key:

    id = "d" + base64url( nonce (16) | payload XOR keystream | tag (16) )
    keystream block i = HMAC(enc_key, nonce | i)        (HMAC as a pseudo-random function, counter mode)
    tag = HMAC(mac_key, nonce | ciphertext)[:16]         (encrypt, then sign)

So an id tells nothing of its cards to anyone without the key (each block of keystream is a PRF output
on a fresh nonce), and an id changed in any bit is refused (the tag). The key is drawn at the server's
start, so a draft does not outlive the process (a stored game does).

The payload:

    byte 0      format (1)
    byte 1      mode: its index among ``game.rules.PRESETS``' names (``service.DRAFT_MODES``)
    byte 2      grade: 0 none, else 1 + its index in ``GRADES``
    byte 3      1 if the server picked the deal
    bytes 4-11  deal number (0: a secret deal), unsigned, big-endian
    bytes 12-19 pool id of a graded secret deal (0: none), unsigned, big-endian
    byte 20     n, the number of cards that follow (0: none)
    bytes 21-   the cards of a random shuffle in dealing order, one byte each
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import struct

PREFIX = "d"
NONCE, TAG, BLOCK = 16, 16, 32
HEAD = struct.Struct(">BBBBQQB")
FORMAT = 1


class Sealer:
    """Seals and opens payloads with a key drawn when it is made."""

    def __init__(self, key: bytes | None = None) -> None:
        key = key if key is not None else secrets.token_bytes(32)
        self._enc = hmac.new(key, b"scorpion draft: encrypt", hashlib.sha256).digest()
        self._mac = hmac.new(key, b"scorpion draft: sign", hashlib.sha256).digest()

    def _keystream(self, nonce: bytes, length: int) -> bytes:
        blocks = (length + BLOCK - 1) // BLOCK
        stream = b"".join(
            hmac.new(self._enc, nonce + struct.pack(">I", i), hashlib.sha256).digest() for i in range(blocks)
        )
        return stream[:length]

    def _tag(self, nonce: bytes, cipher: bytes) -> bytes:
        return hmac.new(self._mac, nonce + cipher, hashlib.sha256).digest()[:TAG]

    def seal(self, payload: bytes) -> str:
        nonce = secrets.token_bytes(NONCE)
        cipher = bytes(a ^ b for a, b in zip(payload, self._keystream(nonce, len(payload))))
        raw = nonce + cipher + self._tag(nonce, cipher)
        return PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")

    def open(self, text: str) -> bytes | None:
        """The payload sealed in ``text``, or None: not a sealed id, or not sealed by this key."""
        if not text.startswith(PREFIX):
            return None
        body = text[len(PREFIX) :]
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except ValueError:
            return None
        if len(raw) < NONCE + TAG:
            return None
        nonce, cipher, tag = raw[:NONCE], raw[NONCE:-TAG], raw[-TAG:]
        if not hmac.compare_digest(tag, self._tag(nonce, cipher)):
            return None
        return bytes(a ^ b for a, b in zip(cipher, self._keystream(nonce, len(cipher))))


def pack_draft(mode: int, grade: int, random: bool, deal: int, secret_id: int, cards: tuple[int, ...] | None) -> bytes:
    """A draft's payload (the layout in the module's docstring); ``mode`` and ``grade`` as indexes."""
    cards = cards or ()
    return HEAD.pack(FORMAT, mode, grade, int(random), deal, secret_id, len(cards)) + bytes(cards)


def unpack_draft(payload: bytes) -> tuple[int, int, bool, int, int, tuple[int, ...] | None] | None:
    """``pack_draft``'s fields from a payload, or None when it is not one."""
    if len(payload) < HEAD.size:
        return None
    fmt, mode, grade, random, deal, secret_id, count = HEAD.unpack_from(payload)
    cards = payload[HEAD.size :]
    if fmt != FORMAT or len(cards) != count:
        return None
    return mode, grade, bool(random), deal, secret_id, (tuple(cards) if count else None)
