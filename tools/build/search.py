"""Index the built site with Pagefind, after the generator has written it; any
generator's HTML will do (MkDocs, ProperDocs, Zensical).

- One record per section: each page's article (Material's ``md-content__inner``)
  is cut at its ``<h2>`` headings; the part before the first
  one is the page's own record. A reader looking for ``register_hook`` or an error
  message gets the entry that explains it, not the longest page that mentions it.
- What is left out (``IGNORED``): machinery (the line under the title, the version
  line, code-block titles, the FAQ's "as asked" quotes with their lists of mirror
  sites, PyTorch test citations) and Python code; recorded outputs stay in, so an
  error text that appears only in an output finds the section that shows it. A
  summary section (a table of contents, a list of every question) is left out by
  its heading: ``{ #all data-pagefind-ignore }`` in the Markdown.
- Words are ours, not a segmenter's: a run of Chinese characters is indexed as its
  overlapping pairs of characters (叶子节点 → 叶子 子节 节点), the query is cut the
  same way in docs/assets/javascripts/search.js, so a Chinese query finds the same
  words on every browser and with no dictionary. Identifiers stay whole
  (``include_characters``) and no word is stemmed: ``inference_mode``,
  ``requires_grad_``, ``torch.compile`` and ``.data`` are words, and a dotted name
  is also found by its last parts (``Module.register_forward_hook`` by
  ``register_forward_hook``).
- One bundle per language (``pagefind/zh/``, ``pagefind/en/``): a zh page loads only
  the zh index.
- Small chunks (``CHUNK_SIZE``): a query fetches only the chunks of its words, so a
  phone's first search stays under 150 KB.

A record's text is what Pagefind keeps: the words a reader sees, then ``SENTINEL``,
then the words only the index needs (the character pairs, the short names). The
search script shows what comes before the sentinel, with the spaces between Chinese
characters taken out.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import os
import re
import resource
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from tools.core.errors import ToolError

# Machinery: what a reader does not search for (``tag``, ``.class``, ``tag.class``).
# Python blocks are code, not prose; text blocks (recorded outputs) stay in.
IGNORED = [
    ".page-meta",
    ".page-end",
    ".page-downloads",
    "p.torch-versions",
    "details.other-releases",  # other releases' outputs (tools/versions/notes.py)
    "p.pytorch-pins",
    "details.quote",
    ".admonition.quote",
    ".filename",
    ".headerlink",
    ".figure-cue",
    "script",
    "style",
    "svg",
    "template",
]
# Code blocks: not shown in results, but the names they use are words of the section
# (once each, weighing ``CODE_WEIGHT``): a function met only in an example is found.
CODE = [f"div.language-{lexer}" for lexer in ("python", "pycon", "bash", "sh", "cpp")]
CODE_WEIGHT = 0.25
INCLUDE_CHARACTERS = "._"
# Pagefind's index chunk, in word locations (its default is 20000): smaller chunks,
# fewer bytes per query word.
CHUNK_SIZE = 2500
OUTPUT = "pagefind"
LANGS = ("zh", "en")
# The language Pagefind is told: none, so it neither stems nor segments (the words
# are already cut, the same way search.js cuts a query).
NO_LANGUAGE = "und"
# Sections that are machinery wherever they are: where a page's facts come from, how
# a chapter was collected, the imports and toy data a page's code starts from.
MACHINERY_SECTIONS = {"sources", "references", "method", "setup"}
# The sections of these pages are questions readers asked (the FAQ's topic pages): their
# headings are also the search field ``q``, which a comparing query weighs.
QUESTIONS = "/faq/"
# Between what readers see and the words only the index needs.
SENTINEL = "\u2063"
# A word every record has: search.js lists the records a filter selects by searching
# for it (a search for nothing would fetch every chunk of the index, about 1 MB).
EVERY_RECORD = "siterecord"
# Heading words weigh what Pagefind gives an <h1>.
TITLE_WEIGHT = 7
# Material's search box fetches search/search_index.json relative to the page's base
# (en pages: en/, tools/site/reader_html.py); its highlighter reads the separator.
STUB_CONFIG = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"([{_HAN}\u3000-\u303f\uff00-\uffef])")
_HAN_RUN = re.compile(f"[{_HAN}]+")
_IDENT = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_NOT_WORD = re.compile(r"[^0-9A-Za-z_.\u00c0-\uffff]")
_LANG = re.compile(r'<html\b[^>]*\blang="([^"]+)"')
# Material's article (any generator's: its class names the content).
_ARTICLE = re.compile(r'<article\b[^>]*\bclass="md-content__inner md-typeset"[^>]*>(.*)</article>', re.S)
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')
_ID = re.compile(r'\bid="([^"]+)"')
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_BLOCK = {
    "p", "div", "li", "ul", "ol", "table", "tr", "td", "th", "pre", "h1", "h2", "h3", "h4",
    "h5", "h6", "details", "summary", "blockquote", "dt", "dd", "figure", "figcaption", "br",
}  # fmt: skip


def _selector(sel: str) -> tuple[str, frozenset[str]]:
    tag, *classes = sel.split(".")
    return tag, frozenset(classes)


_SELECTORS = [_selector(s) for s in IGNORED]
# A top-level list or table each of whose items starts with a link is a table of
# contents: its words are in the sections it links, so it is left out.
_LISTS = {"ul", "ol", "table"}
_CODE_SELECTORS = [_selector(s) for s in CODE]
# How readers name an instance of a class whose methods a heading names:
# model.zero_grad() is Module.zero_grad.
INSTANCE_NAMES = {"module": ("model",)}
# The box in which an entry quotes the message it answers (tools/chapters/errors/):
# its words are the search field ``m``.
_MESSAGE = frozenset({"admonition", "message"})


def spaced(text: str) -> str:
    """Chinese characters as words of their own: a space around each."""
    return _CJK.sub(r" \1 ", text)


def index_words(text: str) -> list[str]:
    """The words only the index needs: each run of Chinese characters as its pairs
    (one character on its own), each identifier that Pagefind would not see whole
    (``requires_grad_`` in ``requires_grad_(False)``) and the last parts of a dotted
    name (``data``, ``.data`` of ``Tensor.data``)."""
    words: list[str] = []
    for run in _HAN_RUN.findall(text):
        words += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
    for chunk in text.split():
        whole = _NOT_WORD.sub("", chunk).lower()
        for ident in _IDENT.findall(chunk):
            if "_" not in ident and "." not in ident.strip("."):
                continue
            if ident.lower() != whole:
                words.append(ident)
            parts = ident.lstrip(".").split(".")
            for i in range(1, len(parts)):
                tail = ".".join(parts[i:])
                words += [tail, "." + tail]
    return words


_ARGS = re.compile(r"\([^()]*\)")
# A keyword argument a heading sets (``retain_graph=True``) names no callable.
_KEYWORD_VALUE = re.compile(r"[A-Za-z_]\w*\s*=\s*[^\s,()]+")


def names(title: str) -> list[str]:
    """What a heading that is only code names: each callable or attribute in it (not
    its arguments), whole and by its last parts, lower case
    (``Tensor.to() / cpu()`` -> ``tensor.to``, ``to``, ``cpu``)."""
    found: list[str] = []
    prefix = ""
    for ident in _IDENT.findall(_KEYWORD_VALUE.sub(" ", _ARGS.sub(" ", title))):
        parts = ident.lower().lstrip(".").split(".")
        if len(parts) > 1:
            prefix = ".".join(parts[:-1])
        elif prefix:  # Tensor.to() / cpu(): cpu is Tensor.cpu
            parts = [*prefix.split("."), *parts]
        spellings = [parts] + [[alias, *parts[1:]] for alias in INSTANCE_NAMES.get(parts[0], ())]
        for spelled in spellings:
            for i in range(len(spelled)):
                name = ".".join(spelled[i:])
                if name not in found:
                    found.append(name)
    return found


def arguments(title: str) -> list[str]:
    """The arguments a code heading lists (``Module.register_buffer(name, tensor,
    persistent=True)`` -> ``name``, ``tensor``, ``persistent``), lower case."""
    found: list[str] = []
    for group in _ARGS.findall(title):
        for arg in group.strip("()").split(","):
            m = _IDENT.match(arg.strip())
            if m and m.group().lower() not in found:
                found.append(m.group().lower())
    return found


@dataclass
class Record:
    lang: str
    url: str
    title: str
    page: str
    skip: bool = False
    names: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)  # the messages it answers
    code: list[str] = field(default_factory=list)  # the text of its code blocks
    page_words: str = ""  # the page's name in the navigation, when not its title
    topic: list[str] = field(default_factory=list)  # the page title's words, code aside
    order: int = 0  # its place in the site's reading order
    question: bool = False  # its heading is a question readers asked (``QUESTIONS``)
    html: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


class _Article(HTMLParser):
    """The article's HTML cut into records, machinery left out, Chinese spaced."""

    def __init__(self, lang: str, url: str):
        super().__init__(convert_charrefs=True)
        self.lang, self.url = lang, url
        self.records: list[Record] = [Record(lang, url, "", "")]
        self.stack: list[tuple[str, frozenset[str]]] = []  # open elements: tag, classes
        self.skip_at: int | None = None  # depth of the element being left out
        self.code_at: int | None = None  # depth of the code block being read
        self.block: dict | None = None  # a top-level list or table, until it is judged
        self.heading: list[str] | None = None  # the text of the <h1>/<h2> being read
        self.heading_code: list[str] = []  # the part of it inside <code>
        self.heading_prose: list[str] = []  # the rest

    def _ignored(self, tag: str, attrs: dict, classes: frozenset[str]) -> bool:
        if "data-pagefind-ignore" in attrs:
            return True
        return any((not t or t == tag) and cls <= classes for t, cls in _SELECTORS)

    def _html(self, piece: str) -> None:
        (self.block["html"] if self.block is not None else self.records[-1].html).append(piece)

    def _text(self, piece: str) -> None:
        (self.block["text"] if self.block is not None else self.records[-1].text).append(piece)

    def _in_message(self) -> bool:
        """Inside the text of a message box (not its title)."""
        inside = False
        for _, classes in self.stack:
            if classes >= _MESSAGE:
                inside = True
            elif "admonition-title" in classes:
                return False
        return inside

    def _new_section(self, attrs: dict) -> None:
        anchor = attrs.get("id")
        if not anchor:
            raise ToolError(f"{self.url}: an <h2> without an id; give the heading an anchor")
        record = Record(self.lang, f"{self.url}#{anchor}", "", "")
        record.question = self.url.removeprefix("/en").startswith(QUESTIONS)
        record.skip = "data-pagefind-ignore" in attrs or anchor in MACHINERY_SECTIONS
        self.records.append(record)

    def handle_starttag(self, tag, attrs):
        attrs_d = dict(attrs)
        classes = frozenset((attrs_d.get("class") or "").split())
        top = not self.stack
        if self.skip_at is not None or self.code_at is not None or tag == "wbr":
            if tag not in _VOID:
                self.stack.append((tag, classes))
            return
        if any((not t or t == tag) and cls <= classes for t, cls in _CODE_SELECTORS):
            self.code_at = len(self.stack)
            self.stack.append((tag, classes))
            return
        if tag == "h2" and top:
            self._new_section(attrs_d)
        elif self._ignored(tag, attrs_d, classes):
            if tag not in _VOID:
                self.skip_at = len(self.stack)
                self.stack.append((tag, classes))
            return
        if tag in ("h1", "h2") and top:
            self.heading, self.heading_code, self.heading_prose = [], [], []
        if top and tag in _LISTS:
            self.block = {"html": [], "text": [], "items": 0, "linked": 0, "first": False}
        if self.block is not None and tag in ("li", "tr"):
            self.block["items"] += 1
            self.block["first"] = True
        if self.block is not None and tag == "th" and self.block["first"]:
            self.block["items"] -= 1  # a header row
            self.block["first"] = False
        if tag in _BLOCK:
            self._text("\n")
            if self._in_message():
                self.records[-1].message.append("\n")
        kept = "".join(
            f' {k}="{html.escape(v or "", quote=True)}"'
            for k, v in attrs
            if k not in ("id", "data-pagefind-ignore")
        )
        self._html(f"<{tag}{kept}>")
        if tag not in _VOID:
            self.stack.append((tag, classes))

    def handle_endtag(self, tag):
        if tag in _VOID or not self.stack:
            return
        self.stack.pop()
        if self.skip_at is not None or self.code_at is not None:
            if len(self.stack) == self.skip_at:
                self.skip_at = None
            if len(self.stack) == self.code_at:
                self.code_at = None
                self.records[-1].code.append("\n")
            return
        record = self.records[-1]
        if tag in _BLOCK:
            self._text("\n")
        self._html(f"</{tag}>")
        if self.block is not None and not self.stack:
            block, self.block = self.block, None
            if not block["items"] or block["linked"] < block["items"]:
                record.html += block["html"]
                record.text += block["text"]
        if self.heading is not None and tag in ("h1", "h2") and not self.stack:
            title = " ".join("".join(self.heading).split())
            record.title = title
            if title and " ".join("".join(self.heading_code).split()) == title:
                record.names, record.args = names(title), arguments(title)
            if tag == "h1":
                record.topic = topic_words(" ".join(self.heading_prose))
            self.heading = None

    def handle_data(self, data):
        if self.skip_at is not None:
            return
        record = self.records[-1]
        if self.code_at is not None:
            record.code.append(data)
            return
        in_arguments = any("arguments" in classes for _, classes in self.stack)
        if in_arguments and self.stack[-1][0] == "code" and data.strip() not in record.args:
            record.args.append(data.strip().lower())
        self._text(data)
        self._html(html.escape(spaced(data), quote=False))
        if self.block is not None and self.block["first"] and data.strip():
            self.block["first"] = False
            if any(tag == "a" for tag, _ in self.stack):
                self.block["linked"] += 1
        if self._in_message():
            record.message.append(data)
        if self.heading is not None:
            self.heading.append(data)
            if any(tag == "code" for tag, _ in self.stack):
                self.heading_code.append(data)
            else:
                self.heading_prose.append(data)


def page_records(page_html: str, url: str) -> list[Record]:
    """The records of one built page: its own, then one per ``<h2>`` section. The
    page's own record also has the page's description (its search excerpt elsewhere);
    every record knows the page's title, and the page's name in the navigation when
    that differs."""
    lang = _LANG.search(page_html)
    article = _ARTICLE.search(page_html)
    if not lang or not article:
        return []
    parser = _Article(lang.group(1), url)
    parser.feed(article.group(1))
    parser.close()
    records = parser.records
    head = page_html[: article.start()]
    nav = _TITLE.search(head)
    nav_title = html.unescape(nav.group(1)).rsplit(" - ", 1)[0].strip() if nav else ""
    description = _DESCRIPTION.search(head)
    if description:
        records[0].text.append("\n" + html.unescape(description.group(1)))
    for record in records:
        record.page = records[0].title
        record.topic = records[0].topic
        if nav_title and nav_title != record.page:
            record.page_words = nav_title
    return [r for r in records if not r.skip and r.title and "".join(r.text).strip() != r.title.strip()]


_TOPIC_SPLIT = re.compile(f"[^0-9a-z{_HAN}]+")
# Code written as prose (detach(), no_grad, torch.compile) names no topic.
_CODE_LIKE = re.compile(r"[.\w]*[A-Za-z_][.\w]*(?:\(\)|[._]\w[.\w]*)")


def topic_words(text: str) -> list[str]:
    """A page title's words as the filter ``topic`` has them (search.js cuts a short
    query the same way): code left out, lower case, split at anything but letters and
    digits, a run of Chinese characters as its pairs."""
    found: list[str] = []
    text = _CODE_LIKE.sub(" ", text)
    for chunk in _TOPIC_SPLIT.split(text.lower()):
        runs = _HAN_RUN.findall(chunk)
        words = [
            w
            for run in runs
            for w in ([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
        ]
        words += [w for w in _HAN_RUN.sub(" ", chunk).split() if w]
        found += [w for w in words if w not in found]
    return found


def code_names(code: str) -> list[str]:
    """The names a code block uses, once each, in order: identifiers of two or more
    characters, dotted ones also by their last parts (``torch.no_grad`` ->
    ``torch.no_grad``, ``no_grad``)."""
    found: dict[str, None] = {}
    for ident in _IDENT.findall(code):
        parts = ident.lstrip(".").split(".")
        for i in range(len(parts)):
            name = ".".join(parts[i:])
            if len(name) > 1:
                found.setdefault(name)
    return list(found)


def field_words(text: str) -> str:
    """A heading as the words of a search field: its Chinese as pairs, everything
    else as written, and the short names of its identifiers."""
    return " ".join(index_words(text) + _HAN_RUN.sub(" ", text).split())


def _meta(name: str, value: str) -> str:
    return f'<div data-pagefind-meta="{name}">{html.escape(value, quote=False)}</div>'


def synthetic_html(record: Record) -> str:
    """The record as the HTML Pagefind indexes: what readers see, then the sentinel and
    the words only the index needs; the heading and the page's title as search fields
    (``t``, ``p``) beside the shown ones (``title``, ``page``); the names a code
    heading gives as the filter ``name``, the arguments it lists as ``arg``; the words
    of its page's title (code aside) as the filter ``topic``."""
    body = "".join(record.html)
    if record.url.count("#"):  # a section: its <h2> weighs what the page's <h1> does
        body = body.replace("<h2", "<h1", 1).replace("</h2>", "</h1>", 1)
    text_words = " ".join(index_words("".join(record.text)))
    code_words = " ".join(code_names("".join(record.code)))
    filters = "".join(
        f'<div data-pagefind-filter="{kind}">{html.escape(n, quote=False)}</div>'
        for kind, values in (("name", record.names), ("arg", record.args), ("topic", record.topic))
        for n in values
    )
    return (
        f'<!DOCTYPE html><html lang="{NO_LANGUAGE}"><head><title></title></head><body>'
        + f'<div data-pagefind-sort="order:{record.order:05d}"></div>'
        + _meta("title", record.title)
        + _meta("page", record.page)
        + _meta("t", field_words(record.title))
        + _meta("p", field_words(f"{record.page} {record.page_words}"))
        + (_meta("m", field_words("".join(record.message))) if record.message else "")
        + (_meta("q", field_words(record.title)) if record.question else "")
        + filters
        + f"<main data-pagefind-body>{body}<p>{SENTINEL}</p>"
        f"<p>{html.escape(text_words, quote=False)} {EVERY_RECORD}</p>"
        f'<p data-pagefind-weight="{CODE_WEIGHT}">{html.escape(code_words, quote=False)}</p>'
        "</main></body></html>"
    )


def nav_pages(nav) -> list[str]:
    """The Markdown pages of a MkDocs ``nav`` (mkdocs.yml), in reading order."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in nav_pages(value)]
    if isinstance(nav, list):
        return [p for item in nav for p in nav_pages(item)]
    return []


def page_url(md_path: str) -> str:
    """``a/b.md`` -> ``/a/b/``, ``a/index.md`` -> ``/a/``, ``index.md`` -> ``/``."""
    path = md_path.removesuffix(".md")
    path = "" if path == "index" else path.removesuffix("/index") + "/"
    return "/" + path


def site_records(site_dir: Path, reading_order: list[str] = ()) -> list[Record]:
    """Every record of the site, pages in reading order (``reading_order``, Markdown
    paths; the others after them, by path) and sections in page order."""
    rank = {page_url(md): n for n, md in enumerate(reading_order)}
    pages = []
    for path in sorted(site_dir.rglob("*.html")):
        rel = path.relative_to(site_dir).as_posix()
        if rel.split("/")[0] in (OUTPUT, "assets", "downloads") or rel == "404.html":
            continue
        url = "/" + rel.removesuffix("index.html")
        pages.append((rank.get(url.removeprefix("/en"), len(rank)), url, path))
    records = []
    for _, url, path in sorted(pages):
        records += page_records(path.read_text(encoding="utf-8"), url)
    return records


class _Service:
    """Pagefind's indexing service (``pagefind --service``), one request at a time:
    each message is base64 JSON followed by a comma (the protocol of Pagefind's own
    Python and Node clients, whose Python client waits 0.1 s per message)."""

    def __init__(self, executable: Path, config: dict):
        env = dict(os.environ, PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE=str(CHUNK_SIZE))
        self.proc = subprocess.Popen(
            [str(executable), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self.sent = 0
        self.index_id = self.send({"type": "NewIndex", "config": config})["index_id"]

    def send(self, payload: dict) -> dict:
        self.sent += 1
        message = json.dumps({"message_id": self.sent, "payload": payload})
        self.proc.stdin.write(base64.b64encode(message.encode("utf-8")) + b",")
        self.proc.stdin.flush()
        reply = bytearray()
        while not reply.endswith(b","):
            chunk = self.proc.stdout.read1(65536)
            if not chunk:
                raise ToolError(f"Pagefind's indexing service stopped (exit {self.proc.wait()})")
            reply += chunk
        answer = json.loads(base64.b64decode(bytes(reply[:-1])))["payload"]
        if answer.get("type") == "Error":
            raise ToolError(f"Pagefind refused a record: {answer.get('message')}")
        return answer

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _executable() -> Path:
    try:
        import pagefind_bin_extended
    except ImportError:
        raise ToolError(
            "Pagefind is not installed (pagefind[extended] in requirements.lock): run make setup."
        ) from None
    return pagefind_bin_extended.get_executable()


def write_stub_indexes(site_dir: Path) -> None:
    """The empty index Material's search script fetches (it needs one to start)."""
    stub = json.dumps({"config": STUB_CONFIG, "docs": []})
    for base in (site_dir, site_dir / "en"):
        target = base / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(stub, encoding="utf-8")


# What the search script loads of a bundle (Pagefind also writes its own search
# interfaces and a worker, unused here).
BUNDLE_FILES = re.compile(r"pagefind\.js|pagefind-entry\.json|wasm\.\w+\.pagefind|.*\.pf_\w+")


def _write_bundle(files: list[dict], out: Path) -> None:
    """Write the files Pagefind returned (``GetFiles``, kept in memory: a file it
    writes itself may not be complete when the service exits) that the search
    script loads."""
    for file in files:
        rel = Path(file["path"])
        rel = Path(*rel.parts[1:]) if rel.parts and rel.parts[0] == OUTPUT else rel
        if not BUNDLE_FILES.fullmatch(rel.name):
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(file["content"]))
    if not (out / "pagefind-entry.json").is_file() or not (out / "pagefind.js").is_file():
        raise ToolError(f"Pagefind wrote no search bundle to {out}: see its messages above")


# Pagefind writes each filter's values in the order of a hash map seeded per process,
# so two runs write different filter files (and a different meta file naming them).
# ``_settle_filters`` sorts the values and names each file by its content: two builds
# of the same site write the same bundle. Pagefind's files are gzip'd CBOR after a
# 12-byte signature; the few CBOR types it uses are read and written here.
_SIGNATURE = b"pagefind_dcd"


def _cbor_head(major: int, n: int) -> bytes:
    if n < 24:
        return bytes([major << 5 | n])
    for extra, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if n < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | extra]) + struct.pack(fmt, n)
    raise ValueError(f"{n} does not fit CBOR")


def _cbor_dump(value) -> bytes:
    if isinstance(value, int):
        return _cbor_head(0, value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _cbor_head(3, len(data)) + data
    if isinstance(value, list):
        return _cbor_head(4, len(value)) + b"".join(_cbor_dump(v) for v in value)
    raise ValueError(f"a Pagefind file holds {type(value).__name__}, which this reader does not know")


def _cbor_load(data: bytes, at: int = 0) -> tuple[object, int]:
    major, extra = data[at] >> 5, data[at] & 31
    at += 1
    if extra < 24:
        n = extra
    elif extra <= 27:
        size = 1 << (extra - 24)
        n, at = int.from_bytes(data[at : at + size], "big"), at + size
    else:
        raise ValueError(f"CBOR item {data[at - 1]:#x} at {at - 1}")
    if major == 0:
        return n, at
    if major == 3:
        return data[at : at + n].decode("utf-8"), at + n
    if major == 4:
        items = []
        for _ in range(n):
            item, at = _cbor_load(data, at)
            items.append(item)
        return items, at
    raise ValueError(f"a Pagefind file holds CBOR type {major}, which this reader does not know")


def _read_pf(path: Path):
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(_SIGNATURE):
        raise ToolError(f"{path}: not a Pagefind file (no signature); rebuild the site")
    return _cbor_load(raw, len(_SIGNATURE))[0]


def _pf_bytes(value) -> bytes:
    return gzip.compress(_SIGNATURE + _cbor_dump(value), mtime=0)


def _settle_filters(bundle: Path) -> None:
    """Sort every filter's values and name its file by its content; rewrite the meta
    file and the entry that name them."""
    entry_path = bundle / "pagefind-entry.json"
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    for key, language in entry["languages"].items():
        meta_path = bundle / f"pagefind.{language['hash']}.pf_meta"
        meta = _read_pf(meta_path)
        filters = []
        for name, old in meta[3]:
            path = bundle / "filter" / f"{old}.pf_filter"
            kind, values = _read_pf(path)
            data = _pf_bytes([kind, sorted(values)])
            new = f"{key}_" + hashlib.sha256(data).hexdigest()[:7]
            path.unlink()
            (bundle / "filter" / f"{new}.pf_filter").write_bytes(data)
            filters.append([name, new])
        meta[3] = sorted(filters)
        data = _pf_bytes(meta)
        language["hash"] = f"{key}_" + hashlib.sha256(data).hexdigest()[:11]
        meta_path.unlink()
        (bundle / f"pagefind.{language['hash']}.pf_meta").write_bytes(data)
    entry_path.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def index_site(site_dir: Path, reading_order: list[str] = ()) -> dict:
    """Index ``site_dir`` into ``site_dir/pagefind/<lang>/``; return what was indexed.
    ``reading_order``: the Markdown pages in the order of the site's navigation (a
    search for a name that several entries give lists them in this order)."""
    site_dir = Path(site_dir).resolve()
    records = site_records(site_dir, reading_order)
    out = site_dir / OUTPUT
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    counts = {}
    for lang in LANGS:
        mine = [r for r in records if r.lang == lang]
        if not mine:
            raise ToolError(f'no page of {site_dir} says <html lang="{lang}">: check the site\'s languages')
        service = _Service(_executable(), {"include_characters": INCLUDE_CHARACTERS})
        try:
            for order, record in enumerate(mine):
                record.order = order
                service.send(
                    {
                        "type": "AddFile",
                        "index_id": service.index_id,
                        "url": record.url,
                        "file_contents": synthetic_html(record),
                        "file_path": None,
                    }
                )
            files = service.send({"type": "GetFiles", "index_id": service.index_id})["files"]
        finally:
            service.close()
        _write_bundle(files, out / lang)
        _settle_filters(out / lang)
        counts[lang] = len(mine)
    write_stub_indexes(site_dir)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"records": counts, "cpu_s": round(cpu, 2)}
