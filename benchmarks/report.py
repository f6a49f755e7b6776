"""Read committed results and label them (used by the figures under figures/benchmarks/)."""

from __future__ import annotations

import json
from pathlib import Path

from .common import RESULTS, summarize


class ResultError(ValueError):
    """A result file whose summary does not follow from its raw timings."""


def _timings(node, where: str):
    """Every ``{"raw": [...], "median": ...}`` in a result, with where it sits."""
    if isinstance(node, dict):
        if isinstance(node.get("raw"), list) and "median" in node:
            yield where, node
        for key, value in node.items():
            yield from _timings(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _timings(value, f"{where}[{i}]")


def check_summaries(result: dict, path: Path) -> None:
    """The median, quartiles and range must be those of the raw timings: a number
    typed into a result file is refused wherever the file is read."""
    for where, timing in _timings(result, "result"):
        expected = summarize(timing["raw"])
        for key, value in expected.items():
            stored = timing.get(key)
            if stored is None or abs(stored - value) > 1e-12 * max(1.0, abs(value)):
                raise ResultError(
                    f"{path}: {where}.{key} is {stored!r}, but its raw timings give {value!r}. "
                    "A result is written only by a benchmark run: re-run it (make bench, or "
                    "make bench-gpu) instead of editing the file."
                )


def load(name: str, device: str = "cpu", results_dir: Path = RESULTS) -> dict | None:
    """The newest result of benchmark ``name`` on ``device`` (one file per device), or None."""
    path = results_dir / device / f"{name}.json"
    if not path.is_file():
        return None
    result = json.loads(path.read_text(encoding="utf-8"))
    check_summaries(result, path)
    return result


def require(name: str, device: str = "cpu") -> dict:
    result = load(name, device)
    if result is None:
        raise FileNotFoundError(
            f"No results for {name!r} on {device}: run `make bench` (cpu) or `make bench-gpu` (cuda), "
            f"which writes benchmarks/results/{device}/{name}.json"
        )
    return result


def provenance_line(result: dict, lang: str) -> str:
    """One line naming where and when the numbers were measured."""
    p = result["provenance"]
    dev = p["device"]
    cores = p["machine"]["logical_cores"]
    if dev["type"] == "cuda":
        where = dev["name"]
    elif lang == "zh":
        where = f"{p['machine']['cpu_model']}（{cores} 核）"
    else:
        where = f"{p['machine']['cpu_model']}, {cores} cores"
    changed = p["git"].get("benchmark_code_dirty", p["git"]["dirty"])
    commit = (p["git"]["commit"] or "?")[:7] + (" + changes" if changed else "")
    load = p["load_average"]["start"][0] if p["load_average"]["start"] else "?"
    if lang == "zh":
        return (
            f"测量环境：{where}；torch {p['torch']}（{p['torch_num_threads']} 线程）；"
            f"{p['date_utc'][:10]}；commit {commit}；开始时负载 {load}"
        )
    return (
        f"Measured on {where}; torch {p['torch']} ({p['torch_num_threads']} threads); "
        f"{p['date_utc'][:10]}; commit {commit}; load average {load} at start"
    )


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_bytes(n: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} B"


def fmt_num(v: float) -> str:
    """A bar label: three significant digits, never in exponent notation."""
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.3g}"


def label_bars(ax, bars, fontsize: float = 9, fmt=fmt_num) -> None:
    """Write each bar's value (``fmt``) just above it, or above its error bar."""
    ax.bar_label(bars, labels=[fmt(b.get_height()) for b in bars], padding=2, fontsize=fontsize)


def median_and_iqr(cases: list[dict], scale: float = 1.0) -> tuple[list[float], list[list[float]]]:
    """Each case's median time and its error bar ``[below, above]`` (the interquartile
    range), times ``scale`` (1e3: milliseconds), ready for ``yerr=``."""
    med = [c["timing"]["median"] * scale for c in cases]
    lo = [(c["timing"]["median"] - c["timing"]["q1"]) * scale for c in cases]
    hi = [(c["timing"]["q3"] - c["timing"]["median"]) * scale for c in cases]
    return med, [lo, hi]


def finish(fig, result: dict, lang: str, title: str | None = None):
    """The end of a benchmark figure's ``draw``: its title, the provenance line at the
    bottom, text large enough to read (``tools.figures.legible.legible``)."""
    from tools.figures.legible import legible

    if title is not None:
        fig.suptitle(title, fontsize=11)
    fig.text(0.01, 0.01, provenance_line(result, lang), fontsize=8.5, color="0.35", wrap=True)
    legible(fig)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return legible(fig)
