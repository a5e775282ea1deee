"""What readers see, in their language: the catalogs shipped in the wheel agree with their
sources, cover every message, keep every placeholder, and the engines use them (Sphinx's ``language``,
the MkDocs theme's)."""

from __future__ import annotations

import gettext
import re
from importlib.resources import files
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from textfrag.verdict.i18n import LANGUAGES, Labels, translator

LOCALES = Path(str(files("textfrag") / "locales"))


def catalog(lang: str) -> dict[str, str]:
    with (LOCALES / lang / "LC_MESSAGES" / "textfrag.po").open("rb") as fh:
        return {m.id: m.string for m in read_po(fh) if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_shipped_mo_is_the_po_compiled_and_keeps_every_placeholder(lang: str) -> None:
    po = catalog(lang)
    with (LOCALES / lang / "LC_MESSAGES" / "textfrag.mo").open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    assert {k: mo.gettext(k) for k in po} == po  # `make catalogs` after editing a .po
    for msgid, text in po.items():
        assert text, (lang, msgid)  # (some are the same word: "source" in French)
        assert sorted(re.findall(r"\{\w+\}", text)) == sorted(re.findall(r"\{\w+\}", msgid)), (lang, msgid)


def test_every_language_translates_every_message_english_has() -> None:
    ids = set(catalog("de"))
    for lang in LANGUAGES:
        assert set(catalog(lang)) == ids, lang
    english = Labels.of()
    assert {*english, "line {n}", "lines {first}-{last}"} <= ids | set(english)
    for lang in LANGUAGES:
        labels = Labels.of(translator(lang))
        assert sum(a != b for a, b in zip(labels, english, strict=True)) >= len(english) - 1, lang


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Zeilen 4-6"),
        ("pt-BR", "linhas 4-6"),
        ("zh", "第 4-6 行"),
        ("ja_JP", "4-6 行目"),
        ("en", "lines 4-6"),
        ("xx", "lines 4-6"),
        (None, "lines 4-6"),
    ],
)
def test_a_theme_s_language_finds_its_catalog(language: str | None, expected: str) -> None:
    assert translator(language)("lines {first}-{last}").format(first=4, last=6) == expected
