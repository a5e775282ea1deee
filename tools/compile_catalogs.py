"""Compile the catalogs: ``python tools/compile_catalogs.py`` (``make catalogs``) writes each
``textfrag.mo`` from the ``textfrag.po`` beside it, with Babel (which Sphinx brings)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


def main() -> None:
    for po in sorted((Path(__file__).resolve().parents[1] / "textfrag" / "locales").glob("*/LC_MESSAGES/textfrag.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh)
        with po.with_suffix(".mo").open("wb") as fh:
            write_mo(fh, catalog)
        print(f"{po.with_suffix('.mo')}: {len(catalog)} messages")


if __name__ == "__main__":
    main()
