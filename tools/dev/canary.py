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


def _mkdocs_yml() -> dict:
    """mkdocs.yml as ``tools.pages.parse.mkdocs_config`` reads it, except that a
    ``!!python/name:X`` value (the emoji index and generator) stays the string "X":
    Zensical resolves such strings, mapping ``material.extensions`` to its own."""
    from yaml_env_tag import construct_env_tag

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", construct_env_tag)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix)
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def one_language_config(lang: str, out: Path) -> Path:
    if out.resolve().parent != ROOT:
        # Zensical resolves docs_dir against the config's folder and refuses an
        # absolute one or one outside it.
        raise ToolError(f"{out}: write the Zensical config in the repository root ({ROOT})")
    config = _mkdocs_yml()
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
