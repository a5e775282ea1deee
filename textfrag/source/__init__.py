"""The source: a quoted file's bytes read, once per build, into text.

Takes a path under the root and a charset; gives a :class:`Source` (its text, line index, length and md5)
through the build's :class:`SourceCache`, paths kept under the root, the charsets, the hidden
(bidirectional) characters, and the store of what an earlier run found (a cache that never decides); safe
reading (:mod:`.reading`) apart from the cache; the pool that digests many files on every core
(:mod:`.digesting`), for ``check`` and any other long-lived reader. Nothing outside this package reads a
quoted file.

May import: ``textfrag.errors`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .cache import (
        DEFAULT_CHARSET,
        DEFAULT_MAX_SIZE,
        Digest,
        Source,
        SourceCache,
        codec_name,
        digest_batch,
        length_of,
    )
    from .charsets import same_charset, text_lines
    from .hidden_text import BIDI, bidi_note, mark_html
    from .paths import check_path_syntax, decode_path, encode_path
    from .reading import read_regular, read_under_root
    from .store import WORTH_KEEPING, Store, current

__all__ = [
    "BIDI",
    "DEFAULT_CHARSET",
    "DEFAULT_MAX_SIZE",
    "Digest",
    "Source",
    "SourceCache",
    "Store",
    "WORTH_KEEPING",
    "bidi_note",
    "check_path_syntax",
    "codec_name",
    "current",
    "decode_path",
    "digest_batch",
    "encode_path",
    "length_of",
    "mark_html",
    "read_regular",
    "read_under_root",
    "same_charset",
    "text_lines",
]

_WHERE = {
    "BIDI": "hidden_text",
    "DEFAULT_CHARSET": "cache",
    "DEFAULT_MAX_SIZE": "cache",
    "Digest": "cache",
    "Source": "cache",
    "SourceCache": "cache",
    "Store": "store",
    "WORTH_KEEPING": "store",
    "bidi_note": "hidden_text",
    "check_path_syntax": "paths",
    "codec_name": "cache",
    "current": "store",
    "decode_path": "paths",
    "digest_batch": "cache",
    "encode_path": "paths",
    "length_of": "cache",
    "mark_html": "hidden_text",
    "read_regular": "reading",
    "read_under_root": "reading",
    "same_charset": "charsets",
    "text_lines": "charsets",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
