"""Reading the text files a user gives (positions, move records, deal lists).

One reader for every command: ``-`` is standard input; the text must be
UTF-8 (a byte-order mark at the start is dropped, as editors on Windows
write one); an unreadable or binary file is a :class:`TextInputError` (a
``ValueError``) that names the file and says what is wrong with it.
"""

from __future__ import annotations

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
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextInputError(
            f"cannot read {name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}; a binary file?)"
        ) from None
    return strip_bom(text)


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def visible(text: str) -> str:
    """``text`` with invisible characters (controls, format marks) shown as escapes, for messages."""
    return "".join(
        ch if ch.isprintable() and unicodedata.category(ch) != "Cf" else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )
