"""The MkDocs glue: one-language serve, and a serve that forgets earlier builds."""

from __future__ import annotations

import subprocess

import pytest

from tools.core.repo import ROOT


@pytest.mark.parametrize("only", ["zh", "en", None])
def test_serve_can_build_one_language(monkeypatch, only):
    """`make serve ONLY=zh` sets ONLY_LANG, which mkdocs.yml gives the i18n plugin."""
    from mkdocs.config import load_config

    if only:
        monkeypatch.setenv("ONLY_LANG", only)
    else:
        monkeypatch.delenv("ONLY_LANG", raising=False)
    i18n = load_config(str(ROOT / "mkdocs.yml")).plugins["i18n"].config
    built = sorted(lang.locale for lang in i18n.languages if lang.build)
    assert built == ([only] if only else ["en", "zh"])


@pytest.mark.parametrize("only", ["en", "fr"])
def test_make_serve_passes_only_or_refuses_it(only):
    proc = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed", "serve", f"ONLY={only}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if only == "en":
        assert proc.returncode == 0 and "ONLY_LANG=en " in proc.stdout, proc.stdout + proc.stderr
    else:
        assert proc.returncode != 0 and "use ONLY=zh or ONLY=en" in proc.stderr, proc.stderr


def test_serve_forgets_the_previous_build():
    """mkdocstrings-python's functools.cache on its Jinja environment would keep every
    earlier build alive under `mkdocs serve`; the hook clears it before each build."""
    import jinja2
    from mkdocstrings_handlers.python._internal import rendering

    from tools.site import theme as mkdocs_hooks

    env = jinja2.Environment(loader=jinja2.DictLoader({"a.html": ""}))
    assert rendering._test_existing_template(env, "a.html")
    assert rendering._test_existing_template.cache_info().currsize > 0
    mkdocs_hooks.forget_earlier_builds(None)
    assert rendering._test_existing_template.cache_info().currsize == 0


def test_under_serve_a_tooling_error_is_shown_on_the_page_and_cleared_by_a_rebuild(monkeypatch):
    from tools.core.errors import ToolError
    from tools.site import hooks, serve

    def broken(markdown, **_):
        raise ToolError("data/questions.yml:25: not valid YAML")

    event = hooks._handlers((0, broken), blank_on_error=True)
    monkeypatch.setenv("DETACH_SITE_SERVING", "1")  # what serve.note_command("serve") sets
    hooks._new_build(None)
    assert event.methods[0]("# Page") == ""  # the page's own Markdown is dropped
    html = serve.error_box("<html><body><article>page</article>")
    assert "Build error" in html and "data/questions.yml:25" in html
    hooks._new_build(None)
    assert serve.error_box("<article>page</article>") == "<article>page</article>"

    monkeypatch.delenv("DETACH_SITE_SERVING")  # a plain build fails as before
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="not valid YAML"):
        event.methods[0]("# Page")
