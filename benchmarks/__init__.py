"""Benchmarks: measured on a named machine, results committed as data.

Run ``python -m benchmarks run --device cpu`` (``make bench``) or ``--device cuda``
(``make bench-gpu``); results go to ``benchmarks/results/<device>/<name>.json``.
"""

from . import detach_vs_clone, freezing, grad_mode_overhead, selective_detach

BENCHMARKS = {
    "detach_vs_clone": detach_vs_clone,
    "grad_mode_overhead": grad_mode_overhead,
    "freezing": freezing,
    "selective_detach": selective_detach,
}
