"""Index the built site with Pagefind (extended: Chinese segmentation), after the
generator has written it; any generator's HTML will do (MkDocs, ProperDocs, Zensical).

- What is indexed: each page's ``<article data-pagefind-body>`` (overrides/main.html),
  Python code blocks left out, recorded outputs kept (an error text that appears only
  in an output finds the section that shows it); machinery left out (``IGNORED``: the
  line under the title, the version line, code-block titles, the FAQ's "as asked"
  quotes with their lists of mirror sites, PyTorch test citations).
- One index per ``<html lang>``: a zh page searches the zh pages only.
- Identifiers stay whole: Pagefind keeps ``inference_mode`` as one word (and its
  parts); ``include_characters`` keeps ``.`` and ``_`` inside words, so ``.data``,
  ``torch.compile`` and ``requires_grad_`` are words of their own.
- Small chunks (``CHUNK_SIZE``): a query fetches only the chunks of its words, so a
  phone's first search stays under 150 KB.
- The header's search box is Material's own: docs/assets/javascripts/search.js hands
  its queries to Pagefind, and ``write_stub_indexes`` gives Material's script the empty
  index it fetches at page load (the search plugin is gone).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
from pathlib import Path

from tools.core.errors import ToolError

# Machinery: what a reader does not search for. Python blocks are code, not prose;
# text blocks (recorded outputs) stay in.
IGNORED = [
    ".page-meta",
    ".page-end",
    ".page-downloads",
    "p.torch-versions",
    "p.pytorch-pins",
    "details.quote",
    ".admonition.quote",
    ".filename",
    ".headerlink",
    ".figure-cue",
    "div.language-python",
    "div.language-pycon",
    "div.language-bash",
    "div.language-sh",
    "div.language-cpp",
]
INCLUDE_CHARACTERS = "._"
# Pagefind's index chunk, in word locations (its default is 20000): smaller chunks,
# fewer bytes per query word.
CHUNK_SIZE = 2500
OUTPUT = "pagefind"
# Material's search box fetches search/search_index.json relative to the page's base
# (en pages: en/, tools/site/reader_html.py); its highlighter reads the separator.
STUB_CONFIG = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}


def _executable() -> Path:
    try:
        import pagefind_bin_extended
    except ImportError:
        raise ToolError(
            "Pagefind is not installed (pagefind[extended] in requirements.lock): run make setup."
        ) from None
    return pagefind_bin_extended.get_executable()


def config(site_dir: Path) -> dict:
    return {
        "site": str(site_dir),
        "output_subdir": OUTPUT,
        "exclude_selectors": IGNORED,
        "include_characters": INCLUDE_CHARACTERS,
        "quiet": True,
    }


def write_stub_indexes(site_dir: Path) -> None:
    """The empty index Material's search script fetches (it needs one to start)."""
    stub = json.dumps({"config": STUB_CONFIG, "docs": []})
    for base in (site_dir, site_dir / "en"):
        target = base / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(stub, encoding="utf-8")


def index_site(site_dir: Path) -> dict:
    """Index ``site_dir`` into ``site_dir/pagefind``; return what Pagefind reported."""
    site_dir = Path(site_dir).resolve()
    env = dict(os.environ, PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE=str(CHUNK_SIZE))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as cwd:  # Pagefind reads pagefind.json from its cwd
        (Path(cwd) / "pagefind.json").write_text(json.dumps(config(site_dir)), encoding="utf-8")
        proc = subprocess.run(
            [str(_executable())], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise ToolError(
            f"Pagefind failed to index {site_dir} (exit {proc.returncode}):\n"
            + "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
        )
    write_stub_indexes(site_dir)
    entry = json.loads((site_dir / OUTPUT / "pagefind-entry.json").read_text(encoding="utf-8"))
    languages = {lang: info["page_count"] for lang, info in entry["languages"].items()}
    if set(languages) != {"zh", "en"}:
        raise ToolError(
            f"Pagefind found the languages {sorted(languages)} in {site_dir}, not zh and en: "
            'check the <html lang="…"> of the pages.'
        )
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"languages": languages, "cpu_s": round(cpu, 2)}
