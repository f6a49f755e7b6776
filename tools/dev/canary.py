"""A one-language configuration for Zensical, the engine the site may move to
(the weekly canary: .github/workflows/zensical-canary.yml). Zensical builds one
language per config and runs no hooks or i18n plugin, so the config points
``docs_dir`` at ``docs/<lang>/`` and keeps only what Zensical reads; the pages'
includes come from ``generated/`` (``python -m tools build generate`` first)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tools.core.errors import ToolError
from tools.core.repo import ROOT, rel

_DROPPED_PLUGINS = {"i18n", "search"}  # Zensical brings its own search


def one_language_config(lang: str, out: Path) -> Path:
    if out.resolve().parent != ROOT:
        # Zensical resolves docs_dir against the config's folder and refuses an
        # absolute one or one outside it.
        raise ToolError(f"{out}: write the Zensical config in the repository root ({ROOT})")
    from tools.pages.parse import mkdocs_config

    config = mkdocs_config(python_names=True)  # Zensical maps material.extensions itself
    config.pop("hooks", None)
    config["docs_dir"] = f"docs/{lang}"
    config["site_dir"] = f"site-zensical/{lang}"
    plugins = []
    for plugin in config.get("plugins", []):
        name = plugin if isinstance(plugin, str) else next(iter(plugin))
        if name not in _DROPPED_PLUGINS:
            plugins.append(plugin)
    config["plugins"] = plugins
    theme = dict(config.get("theme", {}))
    theme["language"] = lang
    config["theme"] = theme
    out.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    print(f"wrote {rel(out) if out.is_relative_to(ROOT) else out} (docs/{lang}/)")
    return out
