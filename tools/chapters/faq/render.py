"""The FAQ chapter's pages, rendered from the validated data (``tools.chapters.faq.load``).

``render_index(faq, lang)`` and ``render_topic(faq, lang, topic)`` give the Markdown;
``pages()`` maps every generated page under ``docs/<lang>/faq/`` to it, ``stale()``
lists the committed pages that differ and ``write()`` rewrites them, so that the page
tests see the same includes and anchors as the build.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

from tools.chapters.faq.load import FAQ_DIR, Faq, Question, load
from tools.core.repo import DOCS, LANGS, ROOT

WRITE_HINT = ".venv/bin/python -m tools faq write"

LABELS = {
    "zh": {
        "asked": "提问原文",
        "dups": "另有 {n} 处相同的提问：",
        "undated": "日期不详",
        "error": "报错原文",
        "answer": "简答**：",
        "output": "输出",
        "see": "详细讲解：",
        "generated": "本页根据 data/questions.yml 生成，请勿手改；修改数据后运行 {cmd}",
        "sep": "、",
        "topic_intro": (
            "本页的问题都是读者在公开的问答帖、博客和 GitHub issue 里真实问过的，"
            "按相同问题出现的次数排序（收集方法见[常见问题](index.md#method)）。"
            "每条先给简答，再给一段可以直接运行、用 `assert` 验证简答的代码和它的实际输出，"
            "最后链接到详细讲解的章节。"
        ),
        "more": "本主题下其余收集到的问题，见[全部问题](index.md#all)。",
    },
    "en": {
        "asked": "As asked",
        "dups": "asked {n} more times: ",
        "undated": "undated",
        "error": "The error",
        "answer": "Short answer:** ",
        "output": "Output",
        "see": "In depth: ",
        "generated": (
            "Generated from data/questions.yml; do not edit by hand; after editing the data run {cmd}"
        ),
        "sep": ", ",
        "topic_intro": (
            "Every question on this page was really asked by readers in public Q&A threads, "
            "blog posts and GitHub issues, ordered by how often the same question came up "
            "(how they were collected: [FAQ](index.md#method)). Each gets a short answer, "
            "then code you can run that `assert`s the answer, with its real output, then a link "
            "to the chapter that treats it in depth."
        ),
        "more": "The other questions collected on this topic are under [all questions](index.md#all).",
    },
}


def _escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|#":
        text = text.replace(ch, "\\" + ch)
    return text


def _host(url: str) -> str:
    host = urlparse(url).netloc.removeprefix("www.")
    path = urlparse(url).path
    if host == "github.com":
        parts = path.strip("/").split("/")
        if len(parts) >= 4 and parts[2] in ("issues", "pull"):
            return f"{parts[0]}/{parts[1]}#{parts[3]}"
        return "/".join(parts[:2])
    return host


def _date_text(date: str, lang: str) -> str:
    return LABELS[lang]["undated"] if date == "undated" else date


def _rel(target: str, from_page: str) -> str:
    page, _, anchor = target.partition("#")
    rel = os.path.relpath(page, os.path.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def page_title(lang: str, page: str) -> str:
    for line in (DOCS / lang / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page


def _source_line(q: Question, lang: str) -> str:
    lab = LABELS[lang]
    comma = "，" if lang == "zh" else ", "
    line = f"[{_host(q.source)}]({q.source}){comma}{_date_text(q.date, lang)}"
    if q.duplicates:
        links = lab["sep"].join(f"[{_host(d['source'])}]({d['source']})" for d in q.duplicates)
        line += ("；" if lang == "zh" else "; ") + lab["dups"].format(n=len(q.duplicates)) + links
    return line


def _entry(q: Question, lang: str, page: str) -> str:
    lab = LABELS[lang]
    code = q.evidence.partition(":")[0].removeprefix("snippets/")
    out = code.removesuffix(".py") + ".out"
    section = q.evidence_section
    quote = "“" + _escape(q.asked_in(lang)) + "”"
    parts = [
        f"## {q.title[lang]} {{ #{q.id} }}",
        "",
        f'!!! quote "{lab["asked"]}"',
        f"    {quote}",
        "",
        f"    {_source_line(q, lang)}",
        "",
    ]
    if q.error:
        parts += [f'!!! failure "{lab["error"]}"', f"    `{q.error}`", ""]
    parts += [
        f"**{lab['answer']}{q.answer[lang]}",
        "",
        f'``` python title="{q.evidence.partition(":")[0]}"',
        f'--8<-- "{code}:{section}"',
        "```",
        "",
    ]
    if q.notes[lang]:
        parts += [f"{n}.  {note}" for n, note in enumerate(q.notes[lang], 1)] + [""]
    parts += [
        f'``` text title="{lab["output"]}"',
        f'--8<-- "{out}:{section}"',
        "```",
        "",
        f"{lab['see']}[{page_title(lang, q.see.partition('#')[0])}]({_rel(q.see, page)})",
        "",
    ]
    return "\n".join(parts)


def _header(lang: str) -> str:
    return f"<!-- {LABELS[lang]['generated'].format(cmd=WRITE_HINT)} -->"


def render_topic(faq: Faq, lang: str, topic: str) -> str:
    """The Markdown of one topic page: its answered questions, most frequent first."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    if topic not in faq.topics:
        raise ValueError(f"unknown topic {topic!r}; known: {list(faq.topics)}.")
    page = f"{FAQ_DIR}/{topic}.md"
    lab = LABELS[lang]
    parts = [f"# {faq.topics[topic][lang]}", "", _header(lang), "", lab["topic_intro"], ""]
    for q in faq.answered(topic):
        parts.append(_entry(q, lang, page))
    parts += [lab["more"], ""]
    return "\n".join(parts)


INDEX = {
    "zh": {
        "title": "常见问题",
        "intro": (
            "读者带着问题来：一条报错、一个说不清的现象、一个听说过的技巧。这一章的问题不是我们猜的，"
            "而是从公开的问答帖、博客和 GitHub issue 里收集来的：共 {n} 个不同的问题，"
            "连同相同问题的重复出现共 {sources} 处。出现最多的 {answered} 个问题各有中英文简答、"
            "一段用 `assert` 证明简答的可运行代码（输出是实际运行记录的），以及详细讲解的章节链接；"
            "每条都链接到原始提问，方便你确认这是真实的问题。"
        ),
        "search": "按报错查找 { #search }",
        "search_text": (
            "把报错信息原样粘贴到页面顶部的搜索框里即可：每条报错类问题都在“报错原文”框里给出了"
            "与 PyTorch 2.13 实际输出一致的完整文字，搜索能直接定位到对应的条目。"
        ),
        "topics": "按主题 { #topics }",
        "topic_header": ("主题", "问题数", "已解答", "出现次数"),
        "all": "全部问题 { #all }",
        "all_text": (
            "按主题排列，主题内按出现次数排序。“解答”一栏：本章的条目、本站已有的章节，"
            "或者“尚无解答”：这是本站目前还回答不了的问题。"
        ),
        "all_header": ("提问原文", "来源", "次数", "解答"),
        "none": "尚无解答",
        "method": "收集方法 { #method }",
        "method_text": (
            "2026 年 12 月，我们用检索工具在公开网页（问答帖、教程、博客）和 GitHub issue 中，"
            "按 `detach()`、`.data`、`no_grad`/`inference_mode`、停止梯度、`requires_grad`、原地操作报错、"
            "NumPy 互转、循环中显存增长、梯度没有传过来等关键词和常见报错原文检索，"
            "把问的是同一件事的帖子归为一组（“近似重复”），记录每组的原始提问、地址和日期。"
            "数据在 `data/questions.yml`，本章各页由它生成。简答和代码只以 PyTorch 2.13 的实际运行结果为准，"
            "不照搬提问者或回答者的说法；与实际不符的说法（例如“不连续的张量转 NumPy 会拷贝”），"
            "在对应条目里直接纠正。"
        ),
    },
    "en": {
        "title": "FAQ",
        "intro": (
            "Readers arrive with a question: an error message, a puzzling behaviour, a half-remembered "
            "trick. The questions in this chapter are not guesses: they were collected from public Q&A "
            "threads, blog posts and GitHub issues, {n} distinct questions found {sources} times in all, "
            "counting near-duplicates. The {answered} most frequent each get a short answer in Chinese "
            "and English, runnable code that `assert`s the answer (its output recorded from a real run) "
            "and a link to the chapter that treats it in depth; each links to where it was asked, so you "
            "can see it is a real question."
        ),
        "search": "Search by error message { #search }",
        "search_text": (
            "Paste the error message into the search box at the top of the page: every error-type "
            'question shows the complete text, exactly as PyTorch 2.13 prints it, in its "The error" '
            "box, and the search finds the entry."
        ),
        "topics": "By topic { #topics }",
        "topic_header": ("Topic", "Questions", "Answered", "Times asked"),
        "all": "All questions { #all }",
        "all_text": (
            'By topic, most frequent first within a topic. The "Answer" column points to an entry in '
            'this chapter, to a chapter of the site, or says "not answered yet": a question this site '
            "cannot answer yet."
        ),
        "all_header": ("As asked", "Source", "Times", "Answer"),
        "none": "not answered yet",
        "method": "How the questions were collected { #method }",
        "method_text": (
            "In December 2026 we searched public web pages (Q&A threads, tutorials, blog posts) and GitHub "
            "issues with a search tool, for `detach()`, `.data`, `no_grad`/`inference_mode`, "
            "stop-gradient tricks, `requires_grad`, in-place errors, NumPy conversion, memory that grows "
            "in a loop and gradients that do not arrive, and for the exact text of the common errors. "
            'Posts asking the same thing form one group ("near-duplicates"); for each we kept the '
            "original question, its address and its date. The data is `data/questions.yml`, and the "
            "pages of this chapter are generated from it. Answers and code follow what PyTorch 2.13 "
            'actually does, not what askers or answerers said; claims that do not hold (such as "a '
            'non-contiguous tensor is copied on its way to NumPy") are corrected in their entries.'
        ),
    },
}


def _cell(text: str) -> str:
    return _escape(" ".join(text.split()))


def render_index(faq: Faq, lang: str) -> str:
    """The Markdown of the chapter's index page: method, topics and every question."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {list(LANGS)}, got {lang!r}.")
    t = INDEX[lang]
    page = f"{FAQ_DIR}/index.md"
    qs = faq.questions
    answered = sum(q.answered for q in qs)
    parts = [
        f"# {t['title']}",
        "",
        _header(lang),
        "",
        t["intro"].format(n=len(qs), sources=sum(q.count for q in qs), answered=answered),
        "",
        f"## {t['search']}",
        "",
        t["search_text"],
        "",
        f"## {t['topics']}",
        "",
        "| " + " | ".join(t["topic_header"]) + " |",
        "|---|--:|--:|--:|",
    ]
    for topic, names in faq.topics.items():
        in_topic = faq.in_topic(topic)
        parts.append(
            f"| [{names[lang]}]({topic}.md) | {len(in_topic)} | "
            f"{sum(q.answered for q in in_topic)} | {sum(q.count for q in in_topic)} |"
        )
    parts += ["", f"## {t['all']}", "", t["all_text"], ""]
    for topic, names in faq.topics.items():
        parts += [f"**{names[lang]}**", "", "| " + " | ".join(t["all_header"]) + " |", "|---|---|--:|---|"]
        parts += [_question_row(faq, q, lang, page) for q in faq.in_topic(topic)]
        parts.append("")
    parts += [f"## {t['method']}", "", t["method_text"], ""]
    return "\n".join(parts)


def _question_row(faq: Faq, q: Question, lang: str, page: str) -> str:
    """A row of the index's table of all questions: quote, source, count, answer."""
    comma = "，" if lang == "zh" else ", "
    source = f"[{_host(q.source)}]({q.source}){comma}{_date_text(q.date, lang)}"
    quote = f'<span id="q-{q.id}"></span>“{_cell(q.asked_in(lang))}”'
    return f"| {quote} | {source} | {q.count} | {_answer_cell(faq, q, lang, page)} |"


def _answer_cell(faq: Faq, q: Question, lang: str, page: str) -> str:
    """Where the answer is: this chapter's entry, a page of the site, or nowhere yet."""
    if q.answered:
        return f"[{q.title[lang]}]({_rel(f'{FAQ_DIR}/{q.topic}.md#{q.id}', page)})"
    if not q.covered_by:
        return f"*{INDEX[lang]['none']}*"
    target = q.covered_by.partition("#")[0]
    if target.startswith(FAQ_DIR):
        name = _faq_title(faq, q.covered_by, lang)
    else:
        name = page_title(lang, target)
    return f"[{name}]({_rel(q.covered_by, page)})"


def _faq_title(faq: Faq, link: str, lang: str) -> str:
    anchor = link.partition("#")[2]
    for q in faq.questions:
        if q.id == anchor and q.answered:
            return q.title[lang]
    return link


def pages(faq: Faq) -> dict[Path, str]:
    """Every generated page: docs path -> Markdown."""
    out: dict[Path, str] = {}
    for lang in LANGS:
        out[DOCS / lang / FAQ_DIR / "index.md"] = render_index(faq, lang)
        for topic in faq.topics:
            out[DOCS / lang / FAQ_DIR / f"{topic}.md"] = render_topic(faq, lang, topic)
    return out


def stale(faq: Faq | None = None) -> list[str]:
    """Generated pages whose committed file differs from the data (repo-relative)."""
    faq = faq or load()
    bad = []
    for path, text in pages(faq).items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            bad.append(path.relative_to(ROOT).as_posix())
    gen = {p.resolve() for p in pages(faq)}
    for lang in LANGS:
        for extra in sorted((DOCS / lang / FAQ_DIR).glob("*.md")):
            if extra.resolve() not in gen:
                bad.append(extra.relative_to(ROOT).as_posix() + " (no topic in the data; delete it)")
    return bad


def write() -> list[Path]:
    faq = load()
    written = []
    for path, text in pages(faq).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written
