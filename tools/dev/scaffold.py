"""A new page: both languages, its snippet with a first section, and its nav entry.

``python -m tools new page <section>/<name>`` writes the files below and prints what
to do next; it refuses to overwrite anything.
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.core.errors import ToolError
from tools.core.repo import DOCS, ROOT, SNIPPETS, rel

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*$")

PAGE = {
    "zh": """# {title}

（两到四句话：先回答读者的问题。）

``` python title="snippets/{snippet}"
--8<-- "{include}.py:first"
```

``` text title="输出"
--8<-- "{include}.out:first"
```

## 第一节 {{ #first }}
""",
    "en": """# {title}

(Two to four sentences: answer the reader's question first.)

``` python title="snippets/{snippet}"
--8<-- "{include}.py:first"
```

``` text title="Output"
--8<-- "{include}.out:first"
```

## First section {{ #first }}
""",
}

SNIPPET = '''"""{title}: what this snippet shows, in one sentence."""

# --8<-- [start:first]
import torch

x = torch.ones(2, requires_grad=True)
y = (x * 2).detach()
print(y.requires_grad)
assert not y.requires_grad
# --8<-- [end:first]
'''


def nav_with(nav_text: str, section: str, uri: str) -> str:
    """mkdocs.yml's text with ``uri`` after the last nav entry of ``section``."""
    entries = list(re.finditer(rf"^(\s+)- {re.escape(section)}/[\w./-]+\.md\s*$", nav_text, re.M))
    if not entries:
        raise ToolError(
            f"mkdocs.yml: nav has no section with pages under {section}/; "
            f"add the section to nav by hand, then list {uri} in it."
        )
    last = entries[-1]
    line = f"\n{last.group(1)}- {uri}"
    return nav_text[: last.end()] + line + nav_text[last.end() :]


def new_page(name: str) -> list[Path]:
    """Write the page in both languages, its snippet and its nav entry."""
    if not NAME.match(name):
        raise ToolError(f"{name!r}: give the page as <section>/<name>, lowercase words joined by '-'.")
    section, page = name.split("/")
    module = page.replace("-", "_")
    snippet = SNIPPETS / section / page / f"{module}.py"
    pages = {lang: DOCS / lang / section / f"{page}.md" for lang in PAGE}
    existing = [rel(p) for p in (*pages.values(), snippet) if p.exists()]
    if existing:
        raise ToolError(f"{', '.join(existing)} already exist(s); choose another name.")
    config = ROOT / "mkdocs.yml"
    nav = nav_with(config.read_text(encoding="utf-8"), section, f"{section}/{page}.md")
    title = page.replace("-", " ").capitalize()
    include = f"{section}/{page}/{module}"
    for lang, path in pages.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            PAGE[lang].format(title=title, snippet=f"{include}.py", include=include), encoding="utf-8"
        )
    snippet.parent.mkdir(parents=True, exist_ok=True)
    snippet.write_text(SNIPPET.format(title=title), encoding="utf-8")
    config.write_text(nav, encoding="utf-8")
    return [*pages.values(), snippet, config]
