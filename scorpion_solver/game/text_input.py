"""Reading the text files a user gives (positions, move records, deal lists, JSON files).

One reader for every command: ``-`` is standard input; the text must be
UTF-8 (a byte-order mark at the start is dropped, as editors on Windows
write one); an unreadable or binary file is a :class:`TextInputError` (a
``ValueError``) that names the file and says what is wrong with it: for
text that is not UTF-8 or JSON that does not parse, the line, the column
and the trouble in words, never the decoder's own message.
"""

from __future__ import annotations

import json
import sys
import unicodedata

BOM = "\ufeff"
STDIN = "-"


class TextInputError(ValueError):
    """A file that cannot be read as text; the message names it."""


def read_text(path: str) -> str:
    """The text of ``path`` (``-``: standard input), without a leading byte-order mark."""
    name = "standard input" if path == STDIN else str(path)
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except IsADirectoryError:
        raise TextInputError(f"cannot read {name}: it is a folder, not a file") from None
    except OSError as exc:
        raise TextInputError(f"cannot read {name}: {exc.strerror or exc}") from None
    return decode_text(data, name)


def decode_text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text without a leading byte-order mark; a :class:`TextInputError` naming ``name``,
    the line and the column of the first byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextInputError(f"cannot read {name}: {_not_utf8(data, exc.start)}") from None
    return strip_bom(text)


def _not_utf8(data: bytes, start: int) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # the byte-order marks of UTF-16, which Windows tools write
        return "not UTF-8 text but UTF-16 (save it as UTF-8)"
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8")) + 1  # in characters: what comes before is UTF-8
    return (
        f"not UTF-8 text at line {line}, column {column} (byte 0x{data[start]:02x}: "
        "saved in another encoding, such as Latin-1, or a binary file?)"
    )


def parse_json(text: str, name: str):
    """The JSON value of ``text`` (read from ``name``); a :class:`TextInputError` naming ``name``, the line,
    the column and what is wrong there, in words."""
    if not text.strip():
        raise TextInputError(f"{name}: empty, not JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TextInputError(
            f"{name}, line {exc.lineno}, column {exc.colno}: not valid JSON: {_json_trouble(exc)}"
        ) from None


# What the JSON decoder's messages mean to someone who wrote or edited the file (its messages name the
# parser's expectations and a character offset).
_JSON_TROUBLE = {
    "Expecting value": "a value is missing here (a comma before a closing bracket, or text not in double quotes?)",
    "Expecting ',' delimiter": "a comma is missing here, between two items",
    "Expecting ':' delimiter": "a colon is missing here, after a key",
    "Expecting property name enclosed in double quotes": (
        "a key in double quotes is missing here (a comma before '}', or a key in single quotes or none?)"
    ),
    "Unterminated string starting at": "a string starts here and is never closed",
    "Invalid control character at": "a tab or line break inside a string (write it as \\t or \\n)",
    "Invalid \\escape": "a backslash that starts no escape (write a backslash as \\\\)",
    "Invalid \\uXXXX escape": "a \\u escape without four hexadecimal digits",
    "Extra data": "more text after the JSON value has ended",
}


def _json_trouble(exc: json.JSONDecodeError) -> str:
    if not exc.doc[exc.pos :].strip() and exc.msg != "Extra data":
        return "the text ends before the JSON value does (a closing bracket or quote missing?)"
    return _JSON_TROUBLE.get(exc.msg, exc.msg[:1].lower() + exc.msg[1:])


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def visible(text: str) -> str:
    """``text`` with invisible characters (controls, format marks) shown as escapes, for messages."""
    return "".join(
        ch if ch.isprintable() and unicodedata.category(ch) != "Cf" else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )
