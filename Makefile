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
	$(BIN)/textfrag check --root example_site example_site/docs
	@echo
	@echo "== the excerpt of example_site/src/NOTES.txt lines 4-6, as textfrag show prints it:"
	@$(BIN)/textfrag show --root example_site 'src/NOTES.txt#line=3,6' | cat -A | sed 's/^/    /'

bench: $(STAMP)
	$(BIN)/python bench/bench_core.py

clean:
	rm -rf $(VENV) example_site/_build example_site/site bench/.tree bench/.work
