"""Persistent Document Identifiers (draft-mallery-urn-pdi-00): ``urn:pdi://...`` or ``pdi://...``.

A PDI names a document, not a file, so it is mapped to a local file through a table the user configures
(``--pdi`` on the command line, ``textfrag_pdi_map`` in Sphinx, ``pdi_map`` in MkDocs). Its text
fragment (section 3.4.1) is ``#char=A,B`` or ``#A,B``: the characters from A up to but excluding B,
counted from 0 in the canonical CRLF-encoded text, where every line ending counts as two characters.

The resource identifier follows section 1.2.1 (its rule names restored)::

    resource-identifier = "//" document-series "/" iso-date "/" specifier
    document-series     = component *( "." component ) "." iso-country
    iso-date            = year "/" month "/" day               ; each digits or "*"
    specifier           = unique-id [ "." format [ "." version ] ]
    text-fragment       = "#" [ "char" "=" ] start-char "," end-char

A fragment needs a format and a version (sections 2.5, 2.6), and the format "text" (text/plain).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...errors import FragmentSyntaxError, PathError, TextFragError
from ...source.cache import Source
from ..resolving import Selection, select

SPEC = "draft-mallery-urn-pdi-00"
_PDI = re.compile(
    r"(?P<scheme>(?i:urn:pdi:|pdi:))//(?P<series>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
    r"/(?P<year>[0-9]{4,}|\*)/(?P<month>[0-9]{2}|\*)/(?P<day>[0-9]{2}|\*)"
    r"/(?P<id>[A-Za-z0-9()\-:;$_!'%*]+)(?:\.(?P<format>[A-Za-z-]+|\*)(?:\.(?P<version>[0-9]+|\*))?)?"
    r"(?:#(?P<frag>.*))?"
)
_CHAR = re.compile(r"(?:(?i:char)=)?([0-9]{1,18}),([0-9]{1,18})")


def mapped_path(table: dict[str, str], key: str, reference: str) -> str:
    """The file a Persistent Document Identifier is mapped to in ``table`` (keys in any accepted form:
    ``urn:pdi://...``, ``pdi://...``, any case of the scheme); :class:`PathError` when it is not mapped."""
    wanted = resource_key(key)
    for name, path in table.items():
        if resource_key(name) == wanted:
            return path
    raise PathError(f"no file is mapped to {key} (map it with --pdi, textfrag_pdi_map or pdi_map)", reference=reference)


def resource_key(text: str) -> str:
    """The key a PDI has in the mapping table: ``pdi://...`` without ``urn:`` and without a fragment."""
    body = text.split("#", 1)[0]
    if body[:4].lower() == "urn:":
        body = body[4:]
    return "pdi:" + body[4:] if body[:4].lower() == "pdi:" else body


@dataclass(frozen=True)
class PdiFragment:
    """A PDI text fragment: characters ``start`` to ``end`` (exclusive) of the CRLF-canonical text."""

    resource: str  # the mapping key
    start: int
    end: int
    dialect: ClassVar[str] = "pdi"

    def __str__(self) -> str:
        return f"char={self.start},{self.end}"

    def select(self, source: Source) -> list[Selection]:
        """The characters, counted in the text with every line ending as CR LF (section 3.4.1)."""
        return [select(source, _index(source, self.start, "start"), _index(source, self.end, "end"))]


def _index(source: Source, canonical: int, which: str) -> int:
    """The index in the text of a position in its canonical CRLF text (each line ending two characters)."""
    text = source.text
    starts = source.line_starts
    pos = 0  # canonical offset of the current line's start
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        content = len(text[start:end].rstrip("\r\n\x85")) if end > start else 0
        ending = 2 if end - start > content else 0
        if canonical <= pos + content:
            return start + (canonical - pos)
        if canonical < pos + content + ending:
            raise TextFragError(
                f"the {which} position {canonical} falls between the CR and LF of a line ending (PDI section 3.4.1)"
            )
        pos += content + ending
    if canonical == pos:
        return len(text)
    raise TextFragError(
        f"the {which} position {canonical} is past the end of the text, "
        f"which has {pos} characters as CRLF text (PDI section 3.4.1)"
    )


def parse_pdi(text: str) -> PdiFragment:
    """Parse a PDI reference with a text fragment (``txtfrag:`` already removed)."""
    m = _PDI.fullmatch(text)
    if m is None:
        raise FragmentSyntaxError(
            "not a PDI of the form pdi://series.cc/yyyy/mm/dd/id.format.version#char=A,B",
            source=text,
            span=(0, len(text)),
            spec=f"{SPEC} section 1.2",
        )
    frag = m.group("frag")
    if frag is None:
        raise FragmentSyntaxError(
            "a PDI reference needs a text fragment #char=A,B (or #A,B)",
            source=text,
            span=(len(text) - 1, len(text)),
            spec=f"{SPEC} section 3.4.1",
        )
    at = m.start("frag")
    if m.group("format") is None or m.group("version") is None:
        raise FragmentSyntaxError(
            "a PDI with a fragment needs a format and a version (…/id.text.1)",
            source=text,
            span=(m.start("id"), at - 1),
            spec=f"{SPEC} sections 2.5, 2.6",
        )
    if m.group("format").lower() != "text":
        raise FragmentSyntaxError(
            f"char fragments are for the format 'text' (text/plain), not {m.group('format')!r}",
            source=text,
            span=(m.start("format"), m.end("format")),
            spec=f"{SPEC} section 3.4.1",
        )
    c = _CHAR.fullmatch(frag)
    if c is None:
        raise FragmentSyntaxError(
            "expected a text fragment char=A,B or A,B", source=text, span=(at, len(text)), spec=f"{SPEC} section 3.4.1"
        )
    start, end = int(c.group(1)), int(c.group(2))
    if start > end:
        raise FragmentSyntaxError(
            f"the fragment {start},{end} ends before it starts", source=text, span=(at, len(text)), spec=f"{SPEC} section 3.4.1"
        )
    return PdiFragment(resource_key(text), start, end)
