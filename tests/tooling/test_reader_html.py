"""The reader HTML the build makes around the content (tools/site/reader_html.py)."""

from __future__ import annotations

import re

from tools.site import reader_html as rh
from tools.site.search import _stop_word_js, compact_docs


def test_zh_headings_break_between_words_only():
    out = rh.break_headings_at_words("<h2 id='a'>版本计数器与原地操作检查<code>x.detach()</code></h2>", "zh")
    assert out.replace("<wbr>", "") == "<h2 id='a'>版本计数器与原地操作检查<code>x.detach()</code></h2>"
    words = re.sub(r"<code>.*?</code>|<[^w/][^>]*>|</h2>", "", out).split("<wbr>")
    assert "版本计数器" in words and "原地操作" in words, words
    assert "<code>x.detach()</code>" in out, "no break inside code"
    assert rh.break_headings_at_words("<h2>版本计数器</h2>", "en") == "<h2>版本计数器</h2>"


def test_table_cells_carry_their_header_and_outcomes_read_in_the_language():
    table = (
        "<table><thead><tr><th>out</th><th>new</th><th>in-place</th></tr></thead>"
        "<tbody><tr><td>src.data</td><td>✓</td><td>WRONG</td></tr></tbody></table>"
    )
    out = rh.label_table_cells(table, "zh")
    assert "<table data-glossed" in out and "class=" not in out.split(">")[0]
    assert '<td data-label="新对象">✓</td>' in out
    assert '<span class="outcome outcome--wrong">悄悄算错</span>' in out
    plain = rh.label_table_cells(
        "<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>", "en"
    )
    assert '<td data-label="A">1</td>' in plain and "data-glossed" not in plain


def test_machinery_is_one_line_under_the_title_and_a_block_at_the_end():
    """The producers write the final markup (tools/build/machinery.py): no HTML is
    rewritten after the build."""
    from pathlib import Path

    from tools.build import machinery

    line = (
        '<p class="torch-versions"><small>Code on this page checked with torch 2.4.1, '
        "2.10.0<sup>†</sup>, <strong>2.13.0</strong> (outputs shown), 2.15.0.</small></p>"
    )
    head = machinery.head_line("en", Path("internals/version-counter.md"), True, line)
    assert head.count('class="page-meta"') == 1
    assert 'href="../../../en/downloads/internals/version-counter.py"' not in head
    assert 'href="../../downloads/internals/version-counter.py"' in head and ">.ipynb</a>" in head
    assert 'checked on torch <span class="nowrap">2.4–2.15</span> (some outputs differ)' in head
    md = "## Section { #s }\n\ntext\n\n<!-- pytorch-pins: table-detach -->\n"
    end = machinery.end_block(md, "en", "internals/comparison.md", line)
    assert '<h2 id="sources">Sources</h2>' in end and '<a href="#s">Section</a>' in end
    assert end.index('id="sources"') < end.index('id="torch-versions"')
    assert machinery.head_line("zh", Path("glossary.md"), False, "") == ""


def test_the_index_leaves_out_code_and_evidence_and_boosts_answers():
    docs = [
        {"location": "fact-check/#evidence-api", "title": "x", "text": "<pre>code</pre>"},
        {
            "location": "faq/grad-modes/#no-grad-vs-detach",
            "title": "q",
            "text": "<p>答\u200b。\u200b</p><pre>x</pre>",
        },
        {"location": "faq/grad-modes/", "title": "p", "text": ""},
    ]
    out = compact_docs(docs)
    assert [d["location"] for d in out] == ["faq/grad-modes/#no-grad-vs-detach", "faq/grad-modes/"]
    assert out[0]["text"] == "答。" and out[0]["boost"] > out[1]["boost"]
    js = _stop_word_js()
    assert "function __siteStopWords" in js and "区别" in js and '"vs"' in js
