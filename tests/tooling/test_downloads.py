"""Per-page downloads (tools/downloads/files.py): the reader script and the notebook of
every page, the helper's wheel, and what a reader gets from them outside this
repository.

`make test` executes three representative notebooks in a Jupyter kernel;
`make test-notebooks` executes all of them (ALL_NOTEBOOKS=1).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest

from tools.core.repo import child_env, rel
from tools.downloads import files as dl
from tools.downloads import wheel as helper_wheel
from tools.downloads.run import expected_stdout, normalise_output, run_script
from tools.pages import code as data
from tools.pages import parse as pages
from tools.snippets import stamp as record_stamp
from tools.snippets.source import parse

from ..support.verdicts import code_files, snippet_inputs

ROOT = pages.ROOT
PAGES = {lang: data.pages_with_code(lang) for lang in pages.LANGS}
# A plain page, one with a CUDA-only tab and numpy, one that uses autograd_lens.
REPRESENTATIVE = [
    ("zh", "internals/what-detach-does.md"),
    ("en", "scenarios/leaving-pytorch.md"),
    ("zh", "fundamentals/saved-tensors.md"),
]
ALL_NOTEBOOKS = os.environ.get("ALL_NOTEBOOKS") == "1"
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{8,}\b")


@cache
def _code(lang: str, page: str) -> data.PageCode:
    return data.page_code(lang, Path(page), cuda=False)


@cache
def _downloads(lang: str) -> dict[str, str]:
    return dl.all_downloads(lang, cuda=False)


def test_every_page_with_code_has_both_downloads_in_both_languages():
    assert PAGES["zh"] == PAGES["en"], "zh and en pages with code differ"
    assert len(PAGES["zh"]) >= 30
    for lang in pages.LANGS:
        made = _downloads(lang)
        for page in PAGES[lang]:
            for suffix in (".py", ".ipynb"):
                uri = dl.download_uri(lang, page, suffix)
                assert made.get(uri), f"no {suffix} download for docs/{lang}/{page}"
        assert all(uri.startswith("downloads/" if lang == "zh" else "en/downloads/") for uri in made)


@pytest.mark.parametrize("lang", pages.LANGS)
def test_notebooks_are_valid_nbformat_4_and_mirror_the_page(lang):
    import nbformat

    for page in PAGES[lang]:
        text = _downloads(lang)[dl.download_uri(lang, page, ".ipynb")]
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        assert nb.nbformat == 4
        nbformat.validate(nb)
        code = _code(lang, str(page))
        cells = [c for c in nb.cells if c.cell_type == "code"]
        assert len(cells) == len(code.blocks), f"docs/{lang}/{page}: one code cell per Python block"
        for cell, block in zip(cells, code.blocks):
            if block.skip:
                assert all(s.startswith("#") or not s for s in cell.source.splitlines()), cell.source
                continue
            assert cell.source == block.code.rstrip("\n")
            shipped = "".join(o.text for o in cell.outputs if o.output_type == "stream")
            assert shipped == block.output, (
                f"docs/{lang}/{page} block {block.number}: output is not the record"
            )
        headings = [c.source for c in nb.cells if c.cell_type == "markdown"][1:]
        expected = [
            f"{'#' * h.level} {h.text}" for h in code.items if isinstance(h, data.Heading) and h.level > 1
        ]
        assert headings == expected, f"docs/{lang}/{page}: the page's headings are the Markdown cells"


def test_zh_and_en_downloads_carry_the_same_code():
    for page in PAGES["zh"]:
        zh, en = _code("zh", str(page)), _code("en", str(page))
        assert [b.code for b in zh.blocks] == [b.code for b in en.blocks], page
        assert [b.output for b in zh.blocks] == [b.output for b in en.blocks], page
    nb_zh = _downloads("zh")[dl.download_uri("zh", "internals/what-detach-does.md", ".ipynb")]
    nb_en = _downloads("en")[dl.download_uri("en", "internals/what-detach-does.md", ".ipynb")]
    assert "共享存储" in nb_zh and "共享存储" not in nb_en, (
        "each notebook is made from its own language's page"
    )


def test_downloads_are_deterministic_and_name_no_build_machine_paths():
    # Generated seconds apart, so a timestamp would show up as a difference.
    for lang in pages.LANGS:
        again = dl.all_downloads(lang, cuda=False)
        assert again == _downloads(lang), "two generations differ"
        for uri, text in again.items():
            for leak in (str(ROOT), "/tmp/", "/home/", str(Path.home())):
                assert leak not in text, f"{uri} names a path of the build machine: {leak}"


def test_script_blocks_are_the_snippet_sections_as_the_copy_button_gives_them():
    import textwrap

    for page in PAGES["zh"]:
        for block in _code("zh", str(page)).blocks:
            if len(block.sources) != 1 or block.sources[0][1] is None:
                continue
            path, section = block.sources[0]
            chunk = next(c for c in parse(path).chunks if c.name == section)
            shown = textwrap.dedent(chunk.code)
            want = "\n".join(re.sub(r"\s*# \(\d+\)!$", "", s).rstrip() for s in shown.splitlines()).strip(
                "\n"
            )
            declared = parse(path).expects.get(section)
            if declared:  # '# raises:' / '# warns:': the script prints what the page shows
                want = data.as_run(want + "\n", *declared).strip("\n")
            setup = parse(path).setup_code(section).strip("\n")
            if setup:  # '# setup:': the script runs the set-up the page leaves out
                want = f"# set-up the page does not show ({rel(path)})\n{setup}\n\n\n{want}"
            assert block.code == want + "\n", f"docs/zh/{page} block {block.number}"
    script = dl.script(_code("zh", "internals/what-detach-does.md"))
    assert "# (1)!" not in script and not any(s != s.rstrip() for s in script.splitlines())
    compile(script, "what-detach-does.py", "exec")


def test_cuda_only_block_is_commented_out_with_the_reason():
    code = _code("en", "scenarios/leaving-pytorch.md")
    script = dl.script(code)
    cuda = [b for b in code.blocks if b.skip]
    assert cuda and all("numpy_cuda.py" in b.title for b in cuda)
    part = script.split(f"# %% {cuda[0].title}\n", 1)[1].split("\n# %%", 1)[0]
    assert part.startswith("# Needs CUDA. The site's tests run this file on CPU")
    assert all(s.startswith("#") for s in part.splitlines() if s), "the CUDA block must be commented out"
    compile(script, "leaving-pytorch.py", "exec")


def test_skip_marker_comments_the_block_out_with_its_reason():
    md = (
        "# A page\n\n## Part { #part }\n\n"
        '<!--pytest.mark.skip(reason="downloads a data set")-->\n'
        '``` python title="snippets/internals/what-detach-does/detach_basics.py"\n'
        '--8<-- "internals/what-detach-does/detach_basics.py:share"\n```\n'
    )
    code = data.page_code("en", "demo.md", cuda=False, md=md)
    assert code.blocks[0].skip == ("skip", "downloads a data set")
    script = dl.script(code)
    assert "# The site's tests skip this part: downloads a data set" in script
    assert "\nimport torch" not in script and "# import torch" in script
    with pytest.raises(data.PageCodeError, match="without a reason"):
        data.page_code("en", "demo.md", cuda=False, md=md.replace('reason="downloads a data set"', ""))


def test_missing_or_stale_record_fails_generation_naming_the_file(tmp_path):
    snippet = tmp_path / "lonely.py"
    snippet.write_text("# --8<-- [start:a]\nprint(1)\n# --8<-- [end:a]\n", encoding="utf-8")
    with pytest.raises(data.PageCodeError, match=r"lonely\.py has no recorded output.*record"):
        data._recorded_output(snippet, "a", "docs/zh/x.md:3")
    record = snippet.with_suffix(".out")
    body = "# --8<-- [start:a]\n1\n# --8<-- [end:a]\n"
    record.write_text(record_stamp.stamp_lines(snippet, [], body) + body, encoding="utf-8")
    data._snippet.cache_clear()
    assert data._recorded_output(snippet, "a", "docs/zh/x.md:3") == "1\n"
    # The code changed after recording: its stamp no longer matches.
    snippet.write_text("# --8<-- [start:a]\nprint(2)\n# --8<-- [end:a]\n", encoding="utf-8")
    data._snippet.cache_clear()
    with pytest.raises(
        data.PageCodeError, match=r"docs/zh/x\.md:3: the record .*lonely\.out is stale: the snippet changed"
    ):
        data._recorded_output(snippet, "a", "docs/zh/x.md:3")
    # Stamped for this code, but the sections do not match the snippet's.
    body = "# --8<-- [start:b]\n1\n# --8<-- [end:b]\n"
    record.write_text(record_stamp.stamp_lines(snippet, [], body) + body, encoding="utf-8")
    data._snippet.cache_clear()
    with pytest.raises(data.PageCodeError, match=r"lonely\.out is stale: its sections"):
        data._recorded_output(snippet, "a", "docs/zh/x.md:3")


def test_spawn_page_notebook_says_to_use_the_script():
    nb = json.loads(_downloads("en")[dl.download_uri("en", "scenarios/distributed.md", ".ipynb")])
    assert "torch.multiprocessing.spawn" in "".join(nb["cells"][0]["source"])


# --------------------------------------------------------------------------- notebooks run
DOWNLOAD_CODE = code_files("tools/downloads", "tools/pages", "tools/snippets", "tools/core")
HELPER_SOURCES = [*code_files("src/autograd_lens"), ROOT / "pyproject.toml"]


def _snippet_inputs(code) -> list[Path]:
    """The files the page's snippets read (their stamps name them), for verdict keys."""
    paths = sorted({p for b in code.blocks for p, _ in b.sources if p.suffix == ".py"})
    return [f for p in paths for f in snippet_inputs(p)]


def _notebook_cases():
    return list(_notebook_params())


def _notebook_params():
    for lang in pages.LANGS:
        for page in PAGES[lang]:
            case = (lang, str(page))
            marks = []
            if case not in REPRESENTATIVE and not ALL_NOTEBOOKS:
                marks.append(pytest.mark.skip(reason="run by make test-notebooks (ALL_NOTEBOOKS=1)"))
            yield pytest.param(*case, id=f"{lang}/{page}", marks=marks)


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "page"), _notebook_cases())
def test_notebook_executes_and_matches_its_recorded_outputs(lang, page, tmp_path, verdict):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    code = _code(lang, page)
    text = _downloads(lang)[dl.download_uri(lang, page, ".ipynb")]
    if verdict.reuse("notebook", DOWNLOAD_CODE, [text, *_snippet_inputs(code)]):
        return  # this notebook ran before with exactly these inputs
    nb = nbformat.reads(text, as_version=4)
    recorded = [
        ("".join(o.text for o in c.outputs if o.output_type == "stream"))
        for c in nb.cells
        if c.cell_type == "code"
    ]
    client = NotebookClient(
        nb, timeout=code.timeout, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    if code.needs_fresh_interpreter:
        # The notebook says so in its first cell: spawn cannot find a function defined
        # in a notebook. Check that this is what happens, and only in the last cell.
        # (The child's AttributeError goes to the kernel's stderr, not to the cell.)
        with pytest.raises(CellExecutionError, match=r"mp\.spawn\(worker[\s\S]*ProcessExitedException"):
            client.execute(env=child_env())
        ran = [c for c in nb.cells if c.cell_type == "code" and c.get("execution_count")]
        assert ran[-1] is [c for c in nb.cells if c.cell_type == "code"][-1]
        recorded, nb.cells = recorded[:-1], nb.cells[:-1]
    else:
        client.execute(env=child_env())
    fresh = [
        normalise_output(
            "".join(o.text for o in c.outputs if o.output_type == "stream" and o.name == "stdout")
        )
        for c in nb.cells
        if c.cell_type == "code"
    ]
    for n, (old, new) in enumerate(zip(recorded, fresh), 1):
        assert not _ADDRESS.search(new), f"{lang}/{page} cell {n} printed a memory address"
        assert new == old, (
            f"docs/{lang}/{page}: code cell {n} printed something else under Jupyter than its record.\n"
            f"recorded:\n{old}\nfresh:\n{new}"
        )


# --------------------------------------------------------------------------- outside the repo
@pytest.fixture(scope="module")
def reader_venv(tmp_path_factory) -> Path:
    """A fresh venv with the helper's wheel installed --no-deps, and torch (plus what
    torch and the wheel require, nothing else) reused from this environment."""
    wheel = helper_wheel.build()
    venv = tmp_path_factory.mktemp("reader") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    shared = venv.parent / "torch-only"
    shared.mkdir()
    wanted = ["torch", *_requirements(helper_wheel.metadata(wheel)["requires_dist"])]
    for dist in _closure(wanted):
        for top in _top_levels(dist):
            link = shared / top.name
            if not link.exists():
                link.symlink_to(top)
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "reuse-torch.pth").write_text(str(shared) + "\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            str(wheel),
        ],
        check=True,
        timeout=300,
        capture_output=True,
    )
    return py


def _requirements(lines: list[str]) -> list[str]:
    from packaging.requirements import Requirement

    out = []
    for line in lines:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            out.append(req.name)
    return out


def _closure(names: list[str]) -> list[metadata.Distribution]:
    seen: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # e.g. an optional dependency for another platform
        if dist.metadata["Name"].lower() in ("detach-in-depth", "autograd-lens"):
            continue  # the editable install of this repository: never reuse it
        seen[name] = dist
        todo.extend(_requirements(dist.requires or []))
    return list(seen.values())


def _top_levels(dist: metadata.Distribution) -> set[Path]:
    tops = set()
    for f in dist.files or []:
        parts = Path(str(f)).parts
        if parts and parts[0] != "..":
            tops.add(Path(dist.locate_file(parts[0])))
    return {t for t in tops if t.exists()}


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = "/usr/bin:/bin"
    return env


@pytest.mark.slow
def test_helper_wheel_installs_into_a_fresh_venv_and_imports(request, tmp_path, verdict):
    if verdict.reuse("wheel-in-venv", DOWNLOAD_CODE, HELPER_SOURCES):
        return  # this wheel installed and imported before, built from the same files
    reader_venv = request.getfixturevalue("reader_venv")
    proc = subprocess.run(
        [str(reader_venv), "-c", "import autograd_lens, torch; print(autograd_lens.__file__)"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    location = Path(proc.stdout.strip())
    assert reader_venv.parent.parent in location.parents, f"imported from {location}, not from the venv"
    assert ROOT not in location.parents


# Pages whose code needs only torch and autograd_lens (checked below).
SAMPLE = ["internals/version-counter.md", "scenarios/truncated-bptt.md", "scenarios/freezing.md"]


@pytest.mark.slow
@pytest.mark.parametrize("page", SAMPLE)
def test_downloaded_script_runs_in_an_empty_folder_with_only_torch_and_the_wheel(
    request, tmp_path, page, verdict
):
    code = _code("en", page)
    text = _downloads("en")[dl.download_uri("en", page, ".py")]
    inputs = [text, expected_stdout(code), *HELPER_SOURCES, *_snippet_inputs(code)]
    if verdict.reuse("script-in-venv", DOWNLOAD_CODE, inputs):
        return  # this script ran before with exactly these inputs
    reader_venv = request.getfixturevalue("reader_venv")
    needs = dl.needed_packages("".join(b.code for b in code.blocks if not b.skip))
    assert set(needs) <= {"torch", "autograd_lens"} and "autograd_lens" in needs, needs
    script = tmp_path / f"{code.stem}.py"
    script.write_text(text, encoding="utf-8")
    out = run_script(script, code, python=reader_venv, env=_clean_env(), cwd=tmp_path)
    assert normalise_output(out) == expected_stdout(code), (
        f"{script.name} printed something else than the page shows"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [script.name], (
        "the script wrote files into its folder"
    )


# --------------------------------------------------------------------------- the built site
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000/detach-in-depth/")


def _page_dir(lang: str, page: Path | str) -> Path:
    stem = Path(page).with_suffix("")
    path = stem.parent if stem.name == "index" else stem
    return (Path() if lang == pages.LANGS[0] else Path(lang)) / path


def _resolve(built: Path, page_dir: Path, href: str) -> Path:
    target = (built / page_dir / href.split("#")[0]).resolve()
    return target / "index.html" if target.is_dir() else target


def test_built_site_publishes_the_tested_downloads_and_the_wheel(built_site):
    for lang in pages.LANGS:
        for uri, text in _downloads(lang).items():
            served = built_site / uri
            assert served.is_file(), f"{uri} is not in the built site"
            assert served.read_text(encoding="utf-8") == text, f"{uri} differs from what the tests ran"
    wheel = helper_wheel.build()
    assert (built_site / "downloads" / wheel.name).read_bytes() == wheel.read_bytes()
    served = sorted((built_site / "snippets").rglob("*.py"))
    assert len(served) == len(sorted((ROOT / "snippets").rglob("*.py")))


def test_pages_show_the_download_bar_and_titles_link_to_their_files(built_site):
    bar = re.compile(r'<p class="page-meta">(.*?)</p>', re.DOTALL)  # the line under the title
    for lang in pages.LANGS:
        for page in PAGES[lang]:
            page_dir = _page_dir(lang, page)
            html = (built_site / page_dir / "index.html").read_text(encoding="utf-8")
            m = bar.search(html)
            assert m, f"{page_dir}: no download bar"
            hrefs = re.findall(r'href="([^"]+)"', m.group(1))
            assert [h.rsplit(".", 1)[-1] for h in hrefs[:2]] == ["py", "ipynb"], hrefs
            for href in hrefs:
                assert _resolve(built_site, page_dir, href).is_file(), f"{page_dir}: broken link {href}"
            assert not re.search(r'<span class="filename">snippets/', html), (
                f"{page_dir}: a title is not a link"
            )
            for href in re.findall(r'<span class="filename"><a href="([^"]+)"', html):
                assert _resolve(built_site, page_dir, href).is_file(), f"{page_dir}: broken title link {href}"
            if not os.environ.get("SOURCE_REPOSITORY"):
                assert "page-downloads__repo" not in html, "a repository link with no repository configured"


@pytest.mark.parametrize("lang", pages.LANGS)
def test_run_page_commands_point_at_files_of_the_built_site(built_site, lang):
    html = (built_site / _page_dir(lang, "run-yourself.md") / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html).replace("&quot;", '"')
    assert f"SITE={SITE_URL.rstrip('/')}\n" in text
    urls = sorted(set(re.findall(r'"\$SITE/([^"]+)"', text)))
    assert any(u.endswith(".whl") for u in urls) and any(u.endswith(".ipynb") for u in urls), urls
    for url in urls:
        assert (built_site / url).is_file(), f"$SITE/{url} is not in the built site"
    assert "@" + "WHEEL" not in text


def test_titles_link_to_the_repository_at_the_built_commit_when_configured(monkeypatch):
    from tools.core.repo import source_repository
    from tools.downloads.html import link_snippet_titles

    monkeypatch.setenv("SITE_COMMIT", "0123abc")
    monkeypatch.setenv("GITHUB_SHA", "fedcba9")  # main's newest commit under workflow_run: ignored
    page_md = (
        '``` python title="snippets/internals/what-detach-does/detach_basics.py"\n'
        '--8<-- "internals/what-detach-does/detach_basics.py:share"\n```\n'
    )
    html = '<span class="filename">snippets/internals/what-detach-does/detach_basics.py</span>'
    chunk = next(
        c
        for c in parse(ROOT / "snippets/internals/what-detach-does/detach_basics.py").chunks
        if c.name == "share"
    )
    lines = f"#L{chunk.first_line}-L{chunk.first_line + len(chunk.code.splitlines()) - 1}"
    for repo, expect_repo in ((None, False), ("https://git.invalid/owner/repo/", True)):
        if repo:
            monkeypatch.setenv("SOURCE_REPOSITORY", repo)
        else:
            monkeypatch.delenv("SOURCE_REPOSITORY", raising=False)
        url = "en/internals/what-detach-does/"
        out = link_snippet_titles(html, page_md, url, "en", source_repository())
        assert 'href="../../../snippets/internals/what-detach-does/detach_basics.py"' in out
        blob = f'href="https://git.invalid/owner/repo/blob/0123abc/snippets/internals/what-detach-does/detach_basics.py{lines}"'
        assert (blob in out) == expect_repo, out


def _shown(block) -> str:
    """A block as the page shows it: the script wraps a '# raises:'/'# warns:' section
    so that it prints what the page shows, and runs a '# setup:' before it."""
    import textwrap

    if len(block.sources) == 1 and block.sources[0][1]:
        path, section = block.sources[0]
        snippet = parse(path)
        if section in snippet.expects or section in snippet.setups:
            chunk = next(c for c in snippet.chunks if c.name == section)
            return data.reader_code(textwrap.dedent(chunk.code)).rstrip("\n")
    return block.code.rstrip("\n")


@pytest.mark.browser
def test_copy_button_text_is_the_code_the_script_runs(built_site, browser, verdict):
    """Material's copy button copies the code with the annotation markers left out
    (and trims the end); that is each block of the downloaded script, apart from the
    spaces that stood before a marker at the end of a line, and the wrapping of a
    section declared to raise or warn (``_shown``)."""
    copy_js = """() => Array.from(document.querySelectorAll('.language-python.highlight pre > code'))
        .map(code => { const c = code.cloneNode(true);
                       c.querySelectorAll('.md-annotation').forEach(a => a.remove());
                       return c.textContent.trimEnd(); })"""
    cases = [
        ("zh", "internals/what-detach-does.md"),
        ("en", "scenarios/leaving-pytorch.md"),
        ("zh", "scenarios/truncated-bptt.md"),
    ]
    shown = [built_site / _page_dir(lang, page) / "index.html" for lang, page in cases]
    shown += sorted(built_site.glob("assets/**/*.js"))  # the copy button is the theme's script
    scripts = [_downloads(lang)[dl.download_uri(lang, page, ".py")] for lang, page in cases]
    if verdict.reuse("copy-button", [], [browser.version, *shown, *scripts]):
        return  # these pages passed before, byte for byte, in this browser
    for lang, page in cases:
        pg = browser.new_page()
        try:
            pg.goto((built_site / _page_dir(lang, page) / "index.html").as_uri())
            pg.wait_for_selector(".md-annotation", state="attached")
            copied = pg.evaluate(copy_js)
        finally:
            pg.close()
        want = [_shown(b) for b in _code(lang, page).blocks]
        got = ["\n".join(s.rstrip() for s in c.splitlines()) for c in copied]
        assert got == want, f"{lang}/{page}: the copy button gives other code than the script"
