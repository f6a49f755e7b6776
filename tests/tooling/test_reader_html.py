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


def test_machinery_goes_to_one_line_and_the_end_of_the_page():
    content = (
        '<h1 id="t">Title</h1>\n<p class="torch-versions"><small>Code on this page checked with torch '
        "2.4.1, 2.10.0<sup>†</sup>, <strong>2.13.0</strong> (outputs shown), 2.15.0.</small></p>\n"
        '<h2 id="s">Section</h2><p>text</p><p class="pytorch-pins"><small>PyTorch pins this too: '
        "<a href='u'><code>test_x</code></a></small></p><p>more</p>"
    )
    out = rh.move_machinery(content, "en")
    assert out.index('<p class="page-meta">') < out.index('<h2 id="s">')
    assert "checked on torch 2.4–2.15 (some outputs differ)" in out
    assert out.index('id="torch-versions"') > out.index("<p>more</p>")
    assert '<h2 id="sources">Sources</h2>' in out and '<a href="#s">Section</a>: ' in out
    assert "PyTorch pins this too" not in out
    page = (
        '<h1>T</h1>\n<div class="page-downloads"><span class="page-downloads__label">Code on this page</span>'
        '<span class="page-downloads__item"><a href="a.py" download="a.py">Python script (.py)</a></span>'
        '<span class="page-downloads__item"><a href="a.ipynb">Jupyter notebook (.ipynb)</a></span>'
        '<span class="page-downloads__item"><a href="../run/">How to run</a></span></div>\n'
        + out[out.index('<p class="page-meta">') :]
    )
    slim = rh.slim_meta_line(page, "en")
    line = re.search(r'<p class="page-meta">(.*?)</p>', slim)[1]
    assert ">.py</a>" in line and ">.ipynb</a>" in line and "checked on torch" in line
    assert slim.count('class="page-meta"') == 1 and 'page-downloads"' not in slim


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
