# The example Sphinx site: quotes the files in ../src with textfrag.
project = "textfrag example"
extensions = ["sphinx_textfrag", "myst_parser"]
textfrag_root = ".."  # reference paths are relative to example_site/
textfrag_source_url = "https://example.org/textfrag/blob/main/example_site/{path}#L{first}-L{last}"
exclude_patterns = ["_build"]
html_theme = "alabaster"
