"""The pages' code blocks are test items too: every docs/<lang>/**/*.md is collected by
tests/support/codeblocks.py (pytest-codeblocks items), so the plugin is loaded here, at
the root, where it sees docs/ as well as tests/."""

pytest_plugins = ["tests.support.codeblocks"]
