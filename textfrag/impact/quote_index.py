"""The docs' quote index: every quote a documentation site shows, to commit or publish, so that the
repositories it quotes can say in their own pull requests which pages a change alters (``textfrag impact
--quoted-by``).

``textfrag index`` writes it (JSON, ``textfrag/schemas/index.schema.json``)::

    {"textfrag-index": 1, "site": "docs", "quotes": [
      {"source": "sdk", "git": "https://github.com/org/sdk", "commit": "1a2b...", "path": "src/app.py",
       "reference": "txtfrag://sdk/src/app.py#line=3,5;length=..;md5=..", "lines": [4, 5], "md5": "...",
       "document": "guide/index.rst", "line": 12, "column": 1, "heading": "Greeting", "url": "https://..."}]}

A quote of the docs' own files has ``source``, ``git`` and ``commit`` null.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath

from ..errors import TextFragError
from ..source.gitrun import same_repository

__all__ = ["IndexedQuote", "index_json", "load_index", "page_url", "read_index", "same_repository"]

INDEX_KEY = "textfrag-index"
_FORMAT = 1
#: an index larger than this is refused before it is read
MAX_INDEX_BYTES = 64 << 20


@dataclass(frozen=True)
class IndexedQuote:
    """One quote a docs site shows: what it quotes, at which commit, and where readers see it."""

    source: str | None
    git: str | None
    commit: str | None
    path: str
    reference: str
    lines: tuple[int, int] | None
    md5: str | None
    document: str
    line: int
    column: int
    heading: str | None
    url: str | None

    @property
    def local_reference(self) -> str:
        """The reference as the quoted repository names the file: ``src/app.py#line=3,5;...``."""
        _, hash_, fragment = self.reference.partition("#")
        from ..source.paths import encode_path

        return f"{encode_path(self.path)}{hash_}{fragment}"


def index_json(site: str, quotes: list[IndexedQuote]) -> str:
    """The index document, sorted by document and line: a review shows exactly what changed."""
    records = []
    for q in sorted(quotes, key=lambda q: (q.document, q.line, q.column)):
        record = asdict(q)
        record["lines"] = list(q.lines) if q.lines else None
        records.append(record)
    return json.dumps({INDEX_KEY: _FORMAT, "site": site, "quotes": records}, indent=2, ensure_ascii=False) + "\n"


_FIELDS = {
    "source": (str, type(None)),
    "git": (str, type(None)),
    "commit": (str, type(None)),
    "path": (str,),
    "reference": (str,),
    "lines": (list, type(None)),
    "md5": (str, type(None)),
    "document": (str,),
    "line": (int,),
    "column": (int,),
    "heading": (str, type(None)),
    "url": (str, type(None)),
}


def read_index(text: str, shown: str) -> tuple[str, list[IndexedQuote]]:
    """The site's name and quotes of an index ``text`` (read from ``shown``); :class:`TextFragError` naming
    it for one textfrag did not write."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TextFragError(f"{shown}:{exc.lineno}: the quote index is not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get(INDEX_KEY) != _FORMAT or not isinstance(data.get("quotes"), list):
        raise TextFragError(f'{shown}: not a quote index textfrag wrote (expected {{"{INDEX_KEY}": {_FORMAT}, "quotes": [...]}})')
    site = data.get("site")
    quotes = []
    for n, record in enumerate(data["quotes"], 1):
        if not isinstance(record, dict) or any(not isinstance(record.get(k), types) for k, types in _FIELDS.items()):
            raise TextFragError(f"{shown}: quote {n} is not one textfrag wrote (fields: {', '.join(_FIELDS)})")
        lines = record["lines"]
        if lines is not None and (len(lines) != 2 or not all(isinstance(x, int) and x >= 0 for x in lines)):
            raise TextFragError(f"{shown}: quote {n}: lines must be [first, last]")
        path = str(record["path"])
        if path.startswith("/") or ".." in path.split("/") or "\x00" in path:
            raise TextFragError(f"{shown}: quote {n}: the path {path!r} leaves its repository")
        quotes.append(IndexedQuote(**{**{k: record[k] for k in _FIELDS}, "lines": tuple(lines) if lines else None}))
    return (site if isinstance(site, str) and site else shown), quotes


def load_index(where: str) -> str:
    """The text of an index at a path or an ``https://`` (or ``http://``) URL, at most 64 MB, in at most
    60 s; :class:`TextFragError` saying why not."""
    if re.match(r"(?i)https?://", where):
        import urllib.request

        try:
            with urllib.request.urlopen(where, timeout=60) as response:  # noqa: S310  (http and https only, above)
                data: bytes = response.read(MAX_INDEX_BYTES + 1)
        except (OSError, ValueError) as exc:
            raise TextFragError(f"--quoted-by {where}: cannot fetch the quote index ({exc})") from None
    else:
        try:
            with open(where, "rb") as file:
                data = file.read(MAX_INDEX_BYTES + 1)
        except OSError as exc:
            raise TextFragError(f"--quoted-by {where}: cannot read the quote index ({exc.strerror})") from None
    if len(data) > MAX_INDEX_BYTES:
        raise TextFragError(f"--quoted-by {where}: the quote index is over {MAX_INDEX_BYTES >> 20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TextFragError(f"--quoted-by {where}: the quote index is not UTF-8") from None


def page_url(site_url: str | None, engine: str, document: str) -> str | None:
    """Where a site built by ``engine`` shows ``document`` (relative to its source folder): Sphinx's
    ``guide/index.html``, MkDocs' ``guide/``; None without a site URL."""
    if not site_url:
        return None
    doc = PurePosixPath(document)
    stem = doc.with_suffix("").as_posix()
    if engine == "mkdocs":
        page = (
            ""
            if doc.stem in ("index", "README") and doc.parent.as_posix() == "."
            else (f"{doc.parent.as_posix()}/" if doc.stem in ("index", "README") else f"{stem}/")
        )
    else:
        page = f"{stem}.html"
    return site_url.rstrip("/") + "/" + page
