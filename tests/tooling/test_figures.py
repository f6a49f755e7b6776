"""Figure builds fail naming the script, and reuse their cache."""

from __future__ import annotations

import pytest

from tools.figures import build as fig_tools


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
