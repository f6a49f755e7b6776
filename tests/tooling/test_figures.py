"""Figure builds fail naming the script, and reuse their cache."""

from __future__ import annotations

import pytest

from tools.figures import build as fig_tools

# What these tests read (tests/support/verdicts.py: a test is reused while they are unchanged)
KEYED_ON = ("tools", "figures", "src", "pyproject.toml", "matplotlibrc")


def test_failing_figure_script_names_the_script(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "broken.py"
    script.write_text("def draw(lang):\n    raise ValueError('bad data for ' + lang)\n")
    with pytest.raises(fig_tools.FigureError) as err:
        fig_tools.build_one(script)
    message = str(err.value)
    assert "broken.py" in message and "bad data for zh" in message
    assert "python -m tools figures render" in message


def test_figure_script_without_draw_is_rejected(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "nodraw.py"
    script.write_text("X = 1\n")
    with pytest.raises(fig_tools.FigureError, match="defines no draw"):
        fig_tools.build_one(script)


def test_figure_cache_is_reused(tmp_path, monkeypatch):
    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "ok.py"
    script.write_text(
        "import matplotlib.pyplot as plt\n"
        "def draw(lang):\n"
        "    fig, ax = plt.subplots()\n"
        "    ax.set_title({'zh': '计算图', 'en': 'graph'}[lang])\n"
        "    return fig\n"
    )
    first = fig_tools.build_one(script)
    stamp = {p: p.stat().st_mtime_ns for p in first.values()}
    second = fig_tools.build_one(script)  # would fail if it re-ran: nothing else changed
    assert first == second and {p: p.stat().st_mtime_ns for p in second.values()} == stamp


def test_inputs_that_match_no_file_are_refused(tmp_path):
    script = tmp_path / "fig.py"
    script.write_text('INPUTS = ["tools/figure_text.py"]\n\n\ndef draw(lang):\n    pass\n', encoding="utf-8")
    with pytest.raises(fig_tools.FigureError, match=r"INPUTS \['tools/figure_text.py'\] match no file"):
        fig_tools.declared_inputs(script)


def test_a_blank_figure_is_refused_and_a_figure_without_pyplot_is_measured():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from tools.figures.legible import legible
    from tools.figures.render import drawn_nothing

    blank = plt.figure()
    _, ax = plt.subplots()  # axes and ticks alone are still blank
    assert "nothing drawn" in drawn_nothing(blank)
    assert "nothing drawn" in drawn_nothing(ax.figure)
    ax.plot([0, 1])
    assert drawn_nothing(ax.figure) is None
    assert isinstance(legible(Figure()), Figure)  # no AttributeError without pyplot
    plt.close("all")


# --------------------------------------------------------------- nothing silently stale (B1, B2)
DRAW_WITH_SHARED = (
    "import matplotlib.pyplot as plt\n"
    "from figures.{folder}._zz_titles import TITLE\n"
    "def draw(lang):\n"
    "    fig, ax = plt.subplots()\n"
    "    ax.plot([0, 1], [0, 1])\n"
    "    ax.set_title(TITLE)\n"
    "    return fig\n"
)


@pytest.fixture
def shared_module_figure(tmp_path, monkeypatch):
    """A figure script importing a module of the repository that no INPUTS lists (files
    named _* are not figure scripts, so a concurrent build renders nothing here)."""
    from tools.core.repo import FIGURES

    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    folder = FIGURES / f"zz_cache_test_{tmp_path.name.replace('-', '_')}"  # one per test (xdist)
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    shared = folder / "_zz_titles.py"
    shared.write_text('TITLE = "first title"\n')
    script = folder / "_zz_fig.py"
    script.write_text(DRAW_WITH_SHARED.replace("{folder}", folder.name))
    yield script, shared
    import shutil

    shutil.rmtree(folder)


def test_a_figure_is_rendered_again_when_a_module_it_imports_changes(shared_module_figure):
    script, shared = shared_module_figure
    first = fig_tools.build_one(script)
    assert "first title" in next(iter(first.values())).read_text()
    shared.write_text('TITLE = "second title"\n')
    second = fig_tools.build_one(script)
    assert "second title" in next(iter(second.values())).read_text()


def test_a_matplotlibrc_in_the_repository_is_part_of_the_key(shared_module_figure, monkeypatch):
    from tools.core.repo import ROOT

    script, _ = shared_module_figure
    before = fig_tools.cache_key(script)
    rc = ROOT / "matplotlibrc"
    assert not rc.exists()
    rc.write_text("lines.linewidth: 6\n")
    try:
        assert fig_tools.cache_key(script) != before
    finally:
        rc.unlink()


def test_build_cache_off_renders_afresh(shared_module_figure, monkeypatch):
    script, _ = shared_module_figure
    first = fig_tools.build_one(script)
    stamp = {p: p.stat().st_mtime_ns for p in first.values()}
    monkeypatch.setenv("BUILD_CACHE", "off")
    monkeypatch.setattr(fig_tools, "_fresh", set())
    again = fig_tools.build_one(script)
    assert any(p.stat().st_mtime_ns != stamp[p] for p in again.values())
    third = fig_tools.build_one(script)  # once per process, not once per language build
    assert {p: p.stat().st_mtime_ns for p in third.values()} == {
        p: p.stat().st_mtime_ns for p in again.values()
    }


def test_a_script_with_nul_bytes_is_one_line(tmp_path, monkeypatch):
    from tools.core.errors import ToolError
    from tools.figures.render import render

    script = tmp_path / "blob_fig.py"
    script.write_bytes(b"def draw(lang):\n    pass\n\x00\x01\x02")
    with pytest.raises(ToolError, match=r"blob_fig.py:3: holds a NUL byte"):
        render(script, tmp_path / "out")


def test_stale_temporary_folders_are_removed(tmp_path, monkeypatch):
    import os
    import time

    monkeypatch.setattr(fig_tools, "CACHE", tmp_path)
    old, new = tmp_path / "tmp-old", tmp_path / "tmp-new"
    old.mkdir()
    new.mkdir()
    past = time.time() - 2 * fig_tools.STALE_TMP_SECONDS
    os.utime(old, (past, past))
    fig_tools.remove_stale_tmp()
    assert not old.exists() and new.exists()  # a running build's folder stays


def test_a_render_records_the_helper_modules_it_imports(tmp_path, monkeypatch):
    """src/autograd_lens/ is not in every figure's key any more: each render says what it used."""
    import json

    from tools.core.repo import FIGURES

    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    built = fig_tools.build_one(FIGURES / "fundamentals" / "dynamic-graph" / "first_graph.py")
    deps = json.loads((next(iter(built.values())).parent / fig_tools.DEPS).read_text())
    assert "src/autograd_lens/graph.py" in deps and "tools/figures/legible.py" in deps


# --------------------------------------------------------------- phone layouts (issue 32, D11)
NARROW_SCRIPT = (
    "import matplotlib.pyplot as plt\n"
    "from tools.figures.legible import legible\n"
    "def draw(lang, narrow=False):\n"
    "    fig, axes = plt.subplots(2, 1, figsize=(4, 6)) if narrow else plt.subplots(1, 2, figsize=(8, 3))\n"
    "    for ax in axes:\n"
    "        ax.plot([0, 1], [0, 1])\n"
    "    axes[0].set_title('narrow' if narrow else 'wide', fontsize=6)\n"
    "    return legible(fig)\n"
)


def test_a_script_that_draws_a_phone_layout_gets_its_narrow_svgs(tmp_path, monkeypatch):
    from tools.figures.legible import PHONE_COLUMN_PX
    from tools.site.reader_html import figure_min_width

    monkeypatch.setattr(fig_tools, "CACHE", tmp_path / "cache")
    script = tmp_path / "panels.py"
    script.write_text(NARROW_SCRIPT)
    built = fig_tools.build_one(script)
    assert sorted(built) == [
        "assets/figures/panels-narrow.en.svg",
        "assets/figures/panels-narrow.zh.svg",
        "assets/figures/panels.en.svg",
        "assets/figures/panels.zh.svg",
    ]
    narrow = built["assets/figures/panels-narrow.zh.svg"].read_text()
    # its text is 11 px on a phone's column, so a phone shows it without scrolling
    assert figure_min_width(narrow) is not None and figure_min_width(narrow) <= PHONE_COLUMN_PX + 1
    assert fig_tools.build_one(script) == built  # the cached render lists them too


def test_a_figure_with_a_phone_layout_is_a_picture_and_one_without_stays_an_img():
    from tools.site.reader_html import NARROW_MEDIA, figures_min_width, figures_to_html, narrow_src

    assert narrow_src("../../assets/figures/a/b/fig.zh.svg") == "../../assets/figures/a/b/fig-narrow.zh.svg"
    body = figures_to_html(
        '<p><img alt="one" src="a/one.zh.svg" /></p><p><img alt="two" src="a/two.zh.svg" /></p>', "zh"
    )
    svg = '<svg viewBox="0 0 300 200"><g transform="translate(1 2) scale(0.11 -0.11)"></g></svg>'
    files = {"a/one.zh.svg": svg, "a/one-narrow.zh.svg": svg, "a/two.zh.svg": svg}
    out = figures_min_width(body, files.get)
    one, two = out.split('id="figure-2"')
    assert f'<picture><source media="{NARROW_MEDIA}" srcset="a/one-narrow.zh.svg"' in one
    assert '<img alt="one" src="a/one.zh.svg"' in one and "</picture>" in one
    assert "<picture>" not in two and '<img alt="two" src="a/two.zh.svg"' in two
    assert out.count("--figure-min: 301px") == 2  # 11 px text at 300 px wide (of the layout shown)


def test_phone_titles_wrap_at_words_and_keep_operators_with_their_operands():
    from figures._phone import wrap

    assert wrap("f(a, 3): exp, then sum > 0, so * 2 twice") == "f(a, 3): exp, then\nsum > 0, so * 2 twice"
    assert (
        wrap("同一个 f(a, n_steps)，调用两次，记下两张不同的图")
        == "同一个 f(a, n_steps)，\n调用两次，记下两张不同的图"
    )


def test_every_figure_draws_a_phone_layout():
    """A phone (390 px) gets every figure whole, none scrolls sideways (issue 32, N1):
    each figure script's ``draw`` takes ``narrow`` (read from the source, nothing run)."""
    import ast

    from tools.core.repo import FIGURES

    scripts = [p for p in sorted(FIGURES.rglob("*.py")) if not p.name.startswith("_")]
    assert len(scripts) >= 15, scripts
    without = []
    for script in scripts:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        (draw,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "draw"]
        names = [a.arg for a in draw.args.args + draw.args.kwonlyargs]
        if "narrow" not in names:
            without.append(str(script.relative_to(FIGURES)))
    assert not without, f"no phone layout (def draw(lang, narrow=False)): {without}"


def test_stagger_rows_puts_neighbours_of_a_wide_row_at_two_heights():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import torch
    from matplotlib.text import Annotation

    from autograd_lens import draw_graph
    from figures._phone import stagger_rows

    a, b, c = (torch.ones(2, requires_grad=True) for _ in range(3))
    loss = torch.stack([a, b, c]).sum()  # below StackBackward0: a row of three AccumulateGrad
    fig, ax = plt.subplots(figsize=(3.5, 8))
    draw_graph({"loss": loss}, {"a": a, "b": b, "c": c}, ax=ax)
    boxes = [t for t in ax.texts if not isinstance(t, Annotation)]
    before = {i: t.get_position() for i, t in enumerate(boxes)}  # the same label may recur
    arrows = len(ax.texts) - len(boxes)
    stagger_rows(ax)
    after = {i: t.get_position() for i, t in enumerate(boxes)}
    rows: dict[float, list[int]] = {}
    for k, (_x, y) in before.items():
        rows.setdefault(y, []).append(k)
    wide = [sorted(r, key=lambda k: before[k][0]) for r in rows.values() if len(r) >= 3]
    assert wide, rows  # the graph has a row of three boxes
    for row in wide:  # neighbours at two heights, every second one lower
        ys = [after[k][1] for k in row]
        assert ys[0] == ys[2] > ys[1], (row, ys)
    assert all(after[k][0] == before[k][0] for k in before)  # no box moves sideways
    (top,) = [r for y, r in rows.items() if y == max(rows)]
    assert [after[k] for k in top] == [before[k] for k in top]  # a row of one stays
    assert len(ax.texts) - len(boxes) == arrows  # the arrows stay, anchored on the boxes
    xs = [p[0] for p in after.values()]
    assert ax.get_xlim() == (min(xs) - 1.2, max(xs) + 1.2)
    plt.close(fig)
