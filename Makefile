# Two commands matter: `make example` builds and shows the example site, `make test` runs everything.
# Both create .venv themselves.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: test example lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/ruff check textfrag sphinx_textfrag mkdocs_textfrag tests bench
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/ruff check textfrag sphinx_textfrag mkdocs_textfrag tests bench
	$(BIN)/ruff format --check textfrag sphinx_textfrag mkdocs_textfrag tests bench
	$(BIN)/mypy

example: $(STAMP)
	$(BIN)/textfrag check --root example_site example_site/sphinx example_site/mkdocs/docs
	$(BIN)/python -m sphinx -b html -q example_site/sphinx example_site/_build/sphinx
	cd example_site/mkdocs && NO_MKDOCS_2_WARNING=1 ../../$(BIN)/mkdocs build -q -d ../_build/mkdocs
	@echo
	@echo "Sphinx site: file://$(CURDIR)/example_site/_build/sphinx/index.html"
	@echo "MkDocs site: file://$(CURDIR)/example_site/_build/mkdocs/index.html"
	@echo "(or serve one: $(BIN)/python -m http.server -d example_site/_build/mkdocs 8000)"

bench: $(STAMP)
	$(BIN)/python bench/bench_core.py
	$(BIN)/python bench/bench_sphinx.py
	$(BIN)/python bench/bench_mkdocs.py

clean:
	rm -rf $(VENV) example_site/_build example_site/site bench/.tree bench/.work
