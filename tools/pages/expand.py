"""A page's includes expanded exactly as pymdownx.snippets does at build
(tools/pages/code.py reads the page's code through it)."""

from __future__ import annotations

from functools import cache

from tools.core.repo import ROOT, SNIPPETS


@cache
def _snippet_preprocessor():
    import markdown
    from pymdownx.snippets import SnippetPreprocessor

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={
            "pymdownx.snippets": {
                "base_path": [str(SNIPPETS), str(ROOT / "generated")],
                "check_paths": True,
                "dedent_subsections": True,
            }
        },
    )
    for proc in md.preprocessors:
        if isinstance(proc, SnippetPreprocessor):
            return proc
    raise RuntimeError("pymdownx.snippets preprocessor not found")


def expand(md: str) -> str:
    """The page with its includes expanded, exactly as pymdownx.snippets does at build."""
    return "\n".join(_snippet_preprocessor().run(md.splitlines()))
