# ruff: noqa: E501  (strings stay as written; some are long sentences)
"""Every zh/en string readers see around the content, in one catalogue.

Each area maps a language to its strings; both languages have the same keys (a test
checks it). A translator finds every reader-facing string of the tooling here; the
pages' own prose is in docs/<lang>/.
"""

from __future__ import annotations

UI: dict[str, dict[str, dict]] = {
    # the download bar's files: script and notebook text (tools/downloads/files.py)
    "downloads.files": {
        "zh": {
            "site": "PyTorch detach() 深度解析：{title}",
            "sep": "、",
            "intro": (
                "本页的全部 Python 代码，按页面顺序排列；本站的测试运行的正是这个文件。",
                "在一个空文件夹里运行：python {name}",
            ),
            "needs": "需要：{pkgs}（安装方法见本站“自己运行代码”一页）。",
            "nb_intro": (
                "本笔记本收录页面“{title}”的全部代码，按页面顺序排列；"
                "每个单元格下的输出是本站测试运行时记录的。"
                "需要的包：{pkgs}，安装方法见本站“自己运行代码”一页。"
            ),
            "cuda": (
                "这一段需要 CUDA。本站的测试在 CPU 上运行本文件，所以把它注释掉了。\n"
                "在有 GPU 的机器上，去掉下面各行的注释即可运行。"
            ),
            "skip": "本站测试跳过这一段：{reason}",
            "spawn": (
                "注意：本页用 `torch.multiprocessing.spawn` 启动子进程，子进程要从文件中导入 "
                "worker 函数，而笔记本里定义的函数做不到这一点，所以最后一个单元格在 Jupyter "
                "中会失败。请下载本页的 `.py` 文件，用 `python {name}` 运行。"
            ),
        },
        "en": {
            "site": "PyTorch detach() in Depth: {title}",
            "sep": ", ",
            "intro": (
                "All the Python code of this page, in page order; the site's tests run this very file.",
                "Run it in an empty folder: python {name}",
            ),
            "needs": 'Needs: {pkgs} (see "Run the code yourself" on the site for how to install).',
            "nb_intro": (
                'All the code of the page "{title}", in page order; the output under each cell '
                "was recorded when the site's tests ran it. "
                'Packages needed: {pkgs}; see "Run the code yourself" on the site for how to install them.'
            ),
            "cuda": (
                "Needs CUDA. The site's tests run this file on CPU, so this part is "
                "commented out; on a machine with a GPU, uncomment the lines below."
            ),
            "skip": "The site's tests skip this part: {reason}",
            "spawn": (
                "Note: this page starts worker processes with `torch.multiprocessing.spawn`; "
                "a child process imports the worker function from a file, which a function "
                "defined in a notebook is not, so the last cell fails under Jupyter. Download "
                "the page's `.py` file and run it with `python {name}`."
            ),
        },
    },
    # the download bar and the run-yourself page (tools/downloads/html.py)
    "downloads.html": {
        "zh": {
            "bar": "本页代码",
            "py": "Python 脚本（.py）",
            "ipynb": "Jupyter 笔记本（.ipynb）",
            "how": "怎样运行",
            "py_title": "本页全部代码，按页面顺序排成一个脚本；测试运行的就是它",
            "ipynb_title": "本页代码的笔记本，附有记录的输出",
            "served": "打开本站发布的这个文件",
            "repo": "仓库",
            "repo_title": "在代码仓库中查看（构建时的提交）",
            "nothing": "无",
            "sep": "、",
            "wheel": "这个 wheel 声明的 Python 版本为 `{python}`，依赖为 {requires}。",
            "repository": "也可以直接从代码仓库安装构建网站时的那个提交：\n\n``` bash\n"
            'pip install "git+{url}@{commit}"\n```',
        },
        "en": {
            "bar": "Code on this page",
            "py": "Python script (.py)",
            "ipynb": "Jupyter notebook (.ipynb)",
            "how": "How to run",
            "py_title": "All the page's code as one script, in page order; the tests run this file",
            "ipynb_title": "The page's code as a notebook, with the recorded outputs",
            "served": "Open the copy of this file published with the site",
            "repo": "repository",
            "repo_title": "View in the source repository (at the built commit)",
            "nothing": "nothing else",
            "sep": ", ",
            "wheel": "The wheel declares Python `{python}` and depends on {requires}.",
            "repository": "You can also install it straight from the source repository, at the commit "
            'this site was built from:\n\n``` bash\npip install "git+{url}@{commit}"\n```',
        },
    },
    # the fact-check table (tools/chapters/factcheck/render.py)
    "factcheck": {
        "zh": {
            "verdict": {"true": "正确", "false": "错误", "misleading": "误导", "unverifiable": "无法验证"},
            "header": ("说法与结论", "理由与证据"),
            "seed": "博文 {post} 第 {section} 节",
            "seed_intro": "博文 {post} 开头",  # reader-facing post names: see docs/*/fact-check.md#posts
            "summary": "共 {n} 条说法：",
            "summary_count": "{verdict} {count} 条",
            "summary_end": "。",
            "evidence": "证据：",
            "gpu": "；GPU：尚未测量",
            "see": "另见：",
            "sep": "、",
            "below": "见下文“{title}”",
        },
        "en": {
            "verdict": {
                "true": "true",
                "false": "false",
                "misleading": "misleading",
                "unverifiable": "unverifiable as stated",
            },
            "header": ("Claim and verdict", "Why, and the evidence"),
            "seed": "Post {post}, section {section}",
            "seed_intro": "Post {post}, opening",
            "summary": "{n} claims: ",
            "summary_count": "{count} {verdict}",
            "summary_end": ".",
            "evidence": "Evidence: ",
            "gpu": "; GPU: not yet measured",
            "see": "see also: ",
            "sep": ", ",
            "below": "“{title}” below",
        },
    },
    # the FAQ topic pages (tools/chapters/faq/render.py)
    "faq": {
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
                "然后链接到详细讲解的章节；提问的原文和出处收在每条的最后。"
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
                "to the chapter that treats it in depth; the question as asked, and where, closes each entry."
            ),
            "more": "The other questions collected on this topic are under [all questions](index.md#all).",
        },
    },
    # the API inventory pages (tools/chapters/apis/render.py)
    "apis": {
        "zh": {
            "title": "API 清单",
            "description": "哪些 PyTorch API 决定梯度是否流动、流向哪里、计算图占多少内存：每个都有一段断言过的示例。",
            "generated": "本页根据 data/apis.yml 生成，请勿手改；修改数据后运行 {cmd}",
            "api": "API",
            "what": "对梯度的作用",
            "params": "起作用的参数：",
            "other_params": "其余参数（{names}）与梯度无关。",
            "deprecated": "已弃用，但仍可运行。",
            "output": "输出",
            "see": "详见：",
            "sep": "、",
            "lead": (
                "梯度会不会流、流到哪里、计算图留住多少内存，不只由 `detach()` 决定："
                "下面 {n} 个 API 都能左右它。每个 API 用两三句话说明它对计算图、梯度和内存做了什么，"
                "再给一段运行过、用 `assert` 验证这些话的代码。按命名空间查找："
            ),
            "namespaces": "按命名空间 { #namespaces }",
            "count": "{n} 个",
            "all": "全部 API { #all }",
            "deprecated_head": "已弃用但仍可运行 { #deprecated }",
            "deprecated_text": "这些写法在旧代码里还很常见，今天仍然能运行；各条目说明它们现在的实际行为和替代写法。",
            "method": "清单是怎么来的 { #method }",
            "method_text": (
                "清单不是凭记忆列的，而是由 `python -m tools apis candidates` 从本站固定的 PyTorch 版本中内省得到："
                "每个命名空间的 `__all__`、相关类的公开成员（`torch.Tensor` 只取名字或文档字符串涉及"
                " autograd 的那些：它的 600 多个公开名字大多是可微算子，并不决定梯度流向哪里），"
                "再加上少数规则找不到、读者却常用的名字（如 `Tensor._version`、`torch._dynamo.config` 的开关）。"
                "规则写在 `tools/chapters/apis/candidates.py` 的文档字符串里。共得到 {candidates} 个候选："
                "{covered} 个由本清单的 {entries} 个条目覆盖，其余 {excused} 个各有一句不收录的理由（见下）。"
                "每个条目还逐一核对了候选的参数：起作用的参数必须出现在示例代码里，其余参数在数据文件里注明与梯度无关的理由。"
                "有测试保证：候选缺条目、条目缺可运行的断言，都会失败。"
            ),
            "excused": "不收录的 {n} 个候选及理由",
        },
        "en": {
            "title": "API inventory",
            "description": "Which PyTorch APIs decide whether a gradient flows, where it flows and what memory the graph holds, each with an asserted example.",
            "generated": "Generated from data/apis.yml; do not edit by hand; after editing the data run {cmd}",
            "api": "API",
            "what": "What it does to gradients",
            "params": "Parameters that matter: ",
            "other_params": "The other parameters ({names}) do not affect gradients.",
            "deprecated": "Deprecated, but still runs.",
            "output": "Output",
            "see": "In depth: ",
            "sep": ", ",
            "lead": (
                "Whether a gradient flows, where it goes and how much memory the graph keeps is not "
                "decided by `detach()` alone: the {n} APIs below all have a say. Each gets two or three "
                "sentences on what it does to the graph, to gradients and to memory, and code that ran "
                "and `assert`s them. Look them up by namespace:"
            ),
            "namespaces": "By namespace { #namespaces }",
            "count": "{n}",
            "all": "All APIs { #all }",
            "deprecated_head": "Deprecated, still running { #deprecated }",
            "deprecated_text": "Old code still uses these, and they still run; each entry says what they do today and what to write instead.",
            "method": "How the list was made { #method }",
            "method_text": (
                "The list is not written from memory: `python -m tools apis candidates` introspects the "
                "PyTorch release this site pins: each namespace's `__all__`, the public members of the "
                "classes involved (of `torch.Tensor`, only the names whose name or docstring speaks of "
                "autograd: most of its 600-odd public names are differentiable operators, which decide "
                "nothing about where gradients go), and a few names readers use that no rule finds (such "
                "as `Tensor._version` or `torch._dynamo.config` switches). The rule is the docstring of "
                "`tools/chapters/apis/candidates.py`. That gives {candidates} candidates: {covered} are "
                "covered by the {entries} entries here, and each of the other {excused} has a one-line "
                "reason to be left out (below). Every entry is also checked parameter by parameter: a "
                "parameter that matters must be used in the example, the others carry a reason in the data "
                "file. Tests fail when a candidate has no entry, or an entry no executed assert."
            ),
            "excused": "The {n} candidates left out, and why",
        },
    },
    # the error chapter (tools/chapters/errors/render.py)
    "errors": {
        "zh": {
            "title": "报错速查",
            "description": "PyTorch 关于 autograd 与 detach 的每条报错和警告：原因、改法和可运行的复现代码。",
            "lead": (
                "把报错粘贴到页面顶部的搜索框，就能跳到对应的条目；也可以在下面按你当时在做的事查找。"
                "每条都给出原因、改法（附验证改法有效的代码），以及一段复现这条报错的代码和它的实际输出。"
            ),
            "group_description": "{name}：PyTorch 的 {n} 条报错与警告，各有原因、改法和复现代码。",
            "group_more": "全部报错见[报错速查](index.md)；这些报错是怎么收集的，见[收集方法](index.md#method)。",
            "generated": "本页根据 data/errors.yml 生成，请勿手改；修改数据后运行 {cmd}",
            "error_box": "报错原文",
            "warning_box": "警告原文",
            "output": "输出",
            "cause": "原因**：",
            "fix": "改法**：",
            "reproduce": "复现**：",
            "see": "详细讲解：",
            "faq": "常见问题：",
            "faq_name": "同一问题的解答",
            "sep": "；",
            "method": "收集方法",
            "method_text": (
                "这份清单不是凭记忆写的：脚本 `python -m tools errors candidates` 从 PyTorch 本身提取"
                "与本站主题相关的全部报错和警告，共 {candidates} 条，来自 {files} 个文件（见下面的列表）。"
                "Python 文件直接取自 torch 安装包。C++ 源码不在安装包里，所以 C++ 的报错取自安装包里"
                "编译好的二进制文件（`libtorch_cpu.so` 等）：每条报错的文字都是二进制里的字符串，"
                "抛出它的 `TORCH_CHECK`、`TORCH_WARN` 所带的文件名和行号（`__FILE__`、`__LINE__`）"
                "也编译在里面，所以这些位置与安装包的提交完全一致。"
                "其中 {answered} 条由本章的 {entries} 个条目解答（条目里的 {messages} 条报错各有一段复现代码），"
                "其余的逐条注明了不收录的理由："
            ),
            "class_internal": "内部断言（只在 PyTorch 自身有缺陷时触发）",
            "class_internal_check": "PyTorch 内部的检查（用户代码触发不到，或只在误用私有接口时触发）",
            "class_another_subject": "与本站主题无关（性能分析器、模块注册、稀疏或量化张量等）",
            "class_unreachable": "在 CPU 上从 Python 触发不到",
            "class_legacy": "已移除或弃用的旧接口",
            "class_pending": "属于本站主题，但还没有条目",
            "files": "读取的源文件，以及读取时的提交",
            "pending": "属于本站主题、还没有条目的报错",
            "origin_wheel": "取自 torch 安装包，提交",
            "origin_checkout": "取自 PyTorch 源码，提交",
            "origin_excerpt": "摘录自 PyTorch 仓库，提交",
            "origin_binary": "取自 torch 安装包的二进制文件，提交",
            "origin_search": "用检索工具在 PyTorch 仓库中找到，提交",
        },
        "en": {
            "title": "Error index",
            "description": "Every PyTorch error and warning about autograd and detach: cause, fix and code that reproduces it.",
            "lead": (
                "Paste your error into the search box at the top of the page to land on its entry, "
                "or find it below by what you were doing. Each entry gives the cause, the fix (with code "
                "that checks the fix works) and code that reproduces the message, with its real output."
            ),
            "group_description": "{n} PyTorch errors and warnings about {name}: cause, fix and code that reproduces each.",
            "group_more": "All the messages are on the [error index](index.md); how they were collected: [method](index.md#method).",
            "generated": "Generated from data/errors.yml; do not edit by hand; after editing the data run {cmd}",
            "error_box": "The error",
            "warning_box": "The warning",
            "output": "Output",
            "cause": "Cause:** ",
            "fix": "Fix:** ",
            "reproduce": "Reproduce it:**",
            "see": "In depth: ",
            "faq": "FAQ: ",
            "faq_name": "the same question answered",
            "sep": "; ",
            "method": "How this list was made",
            "method_text": (
                "This list was not written from memory: the script `python -m tools errors candidates` "
                "extracts every error and warning on the site's subject from PyTorch itself: "
                "{candidates} messages from {files} files (listed below). The Python files come from the "
                "torch wheel. The C++ sources are not in the wheel, so the C++ messages are read from the "
                "wheel's compiled binaries (`libtorch_cpu.so` and others): each message is a string in the "
                "binary, and the file and line that the `TORCH_CHECK` or `TORCH_WARN` raising it passes "
                "(`__FILE__`, `__LINE__`) are compiled in too, so each location is exactly that of the "
                "wheel's commit. {answered} of them are answered by the {entries} entries of this chapter "
                "(the {messages} messages quoted in them each with code that reproduces it); each of the "
                "others is excused with a reason:"
            ),
            "class_internal": "internal assertions (they fire only on a bug in PyTorch)",
            "class_internal_check": "PyTorch's internal checks (user code cannot reach them, or only through private API)",
            "class_another_subject": "another subject (the profiler, module registration, sparse or quantized tensors, ...)",
            "class_unreachable": "unreachable from Python on CPU",
            "class_legacy": "removed or deprecated APIs",
            "class_pending": "on the site's subject, but no entry yet",
            "files": "The source files read, and the commit each was read at",
            "pending": "Messages on the site's subject that have no entry yet",
            "origin_wheel": "from the torch wheel, commit",
            "origin_checkout": "from a PyTorch checkout, commit",
            "origin_excerpt": "excerpt from the PyTorch repository, commit",
            "origin_binary": "from the torch wheel's binaries, commit",
            "origin_search": "found with the search tool in the PyTorch repository, commit",
        },
    },
    # the FAQ index page (tools/chapters/faq/render.py)
    # the FAQ index page (tools/chapters/faq/render.py)
    "faq.index": {
        "zh": {
            "title": "常见问题",
            "lead": (
                "一条报错、一个说不清的现象、一个听说过的技巧：这里收集的是读者真实问过的问题，"
                "每条先给简答，再给证明它的可运行代码。问得最多的几个："
            ),
            "top_more": "其余问题按[主题](#topics)或[全部问题](#all)查找；报错可以直接[搜索](#search)。",
            "intro": (
                "读者带着问题来：一条报错、一个说不清的现象、一个听说过的技巧。这一章的问题不是我们猜的，"
                "而是从公开的问答帖、博客和 GitHub issue 里收集来的：共 {n} 个不同的问题，"
                "连同相同问题的重复出现共 {sources} 处。出现最多的 {answered} 个问题各有中英文简答、"
                "一段用 `assert` 证明简答的可运行代码（输出是实际运行记录的），以及详细讲解的章节链接；"
                "每条都链接到原始提问，方便你确认这是真实的问题。"
            ),
            "search": "按报错查找 { #search }",
            "search_text": (
                "把报错信息粘贴到页面顶部的搜索框里即可：每条报错类问题都在“报错原文”框里逐字引用了"
                " PyTorch 2.13 打印的文字（报错较长、或其中含有你自己的张量名时，只引用其中固定不变的那一段），"
                "搜索能直接定位到对应的条目。"
            ),
            "topics": "按主题 { #topics }",
            "all": "全部问题 { #all }",
            "all_text": (
                "按主题排列，主题内按出现次数排序。点击问题即可跳到解答：本章的条目，或本站已有的章节；"
                "标着“尚无解答”的，是本站目前还回答不了的问题。每个问题的出处和出现次数，见[收集方法](#method)末尾。"
            ),
            "topic_item": "{n} 个问题，已解答 {answered} 个",
            "answered_in": "<small>（见“{page}”）</small>",
            "times": "共 {n} 次",
            "data": "收集到的数据：每个问题的出处、日期与出现次数",
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
            "lead": (
                "An error message, a puzzling behaviour, a half-remembered trick: these are questions "
                "readers really asked, each with a short answer first and the runnable code that proves "
                "it. Asked most often:"
            ),
            "top_more": "Find the rest [by topic](#topics) or in [all questions](#all); paste an error "
            "into the [search](#search).",
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
                'question quotes, in its "The error" box, the words PyTorch 2.13 prints (where the '
                "message is long or names your own tensors, the part that never changes), and the "
                "search finds the entry."
            ),
            "topics": "By topic { #topics }",
            "all": "All questions { #all }",
            "all_text": (
                "By topic, most frequent first within a topic. Each question links to its answer: an entry in "
                'this chapter or a chapter of the site; "not answered yet" marks a question this site cannot '
                "answer yet. Where each question was asked, and how often: the end of [How the questions were "
                "collected](#method)."
            ),
            "topic_item": "{n} questions, {answered} answered",
            "answered_in": "<small>(see “{page}”)</small>",
            "times": "asked {n} times",
            "data": "The collected data: where and when each question was asked, and how often",
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
    },
    # the pattern pages (tools/chapters/patterns/render.py)
    "patterns": {
        "zh": {
            "generated": "本页根据 data/patterns.yml 生成，请勿手改；修改数据后运行 {cmd}",
            "table_pattern": "模式",
            "table_how": "写法",
            "setup": "本页代码的准备 { #setup }",
            "setup_text": (
                "下面各段代码按页面顺序接着运行，共用这里的导入、小网络和一批数据；"
                "整页代码可以用页首的下载按钮拿到。"
            ),
            "answer": "简答**：",
            "idiom": "仓库里的写法：",
            "without": "少了它会怎样**：",
            "failure_see": "完整的演示：",
            "output": "输出",
            "used_in": "这样写的仓库：",
            "line": "第 {line} 行",
            "see": "另见：",
            "sep": "；",
            "sources": "出处 { #sources }",
            "sources_text": (
                "每个模式都先在公开代码索引里按它的特征写法精确检索（检索词见下表，“命中”是检索返回的文件数，"
                "检索工具最多返回 10 个），命中满 10 个才收入本章；再在广泛使用的仓库里找到两三处实际用例，"
                "链接固定到具体的提交。收集方法见[常用写法总览](index.md#method)。"
            ),
            "sources_pattern": "模式",
            "sources_search": "检索词",
            "sources_hits": "命中",
        },
        "en": {
            "generated": "Generated from data/patterns.yml; do not edit by hand; after editing the data run {cmd}",
            "table_pattern": "Pattern",
            "table_how": "Written as",
            "setup": "Set-up for this page's code { #setup }",
            "setup_text": (
                "The blocks below run one after another in page order and share these imports, small "
                "networks and batch; the download button at the top of the page gives the whole script."
            ),
            "answer": "Short answer:** ",
            "idiom": "As the repositories write it:",
            "without": "What goes wrong:** ",
            "failure_see": "Shown in full: ",
            "output": "Output",
            "used_in": "Repositories that write it:",
            "line": "line {line}",
            "see": "See also: ",
            "sep": "; ",
            "sources": "Sources { #sources }",
            "sources_text": (
                "Each pattern was first looked up by its telltale line in a public code index (the string "
                "searched is in the table; “hits” is how many files the search returned, at most 10), and "
                "only patterns with a full 10 hits made it into this chapter; then two or three real uses "
                "were found in widely used repositories and linked at a fixed commit. How they were "
                "chosen: [the overview](index.md#method)."
            ),
            "sources_pattern": "Pattern",
            "sources_search": "String searched",
            "sources_hits": "Hits",
        },
    },
    # the patterns chapter's index page (tools/chapters/patterns/render.py)
    "patterns.index": {
        "zh": {
            "title": "常用写法",
            "description": "强化学习、GAN、自监督、序列模型等训练代码里截断或改道梯度的常见写法，各附仓库出处与反例。",
            "lead": (
                "训练代码里有许多固定写法专门决定梯度流到哪里：目标网络放进 `no_grad`，优势函数先 `detach()`，"
                "EMA 更新不进计算图……本章收集了在广泛使用的仓库里反复出现的 {n} 种。每种都给出仓库里的原样写法、"
                "少了它（或多写了一个 `detach`）会出什么问题，并用 `assert` 检验；"
                "最后列出两三个这样写的仓库，链接固定到具体提交。"
            ),
            "by_page": "按领域 { #by-area }",
            "method": "这些模式是怎么选出来的 { #method }",
            "method_text": (
                "本章的模式这样选出：2026 年 12 月，先在公开代码索引里检索 `detach()`、`no_grad`、"
                "`requires_grad_(False)`、`.data` 等写法在强化学习库、GAN、自监督、序列模型、对抗训练和蒸馏代码中的用法，"
                "再对每种候选写法按它的特征行精确检索：检索返回满 10 个文件（检索工具的上限）的才收入本章，"
                "各页末尾的“出处”表列出了检索词和命中数。仓库链接指向检索时的具体提交和行号，"
                "代码则按这些仓库的写法缩成不超过 15 行的可运行例子。"
            ),
        },
        "en": {
            "title": "Training patterns",
            "description": "The common ways training code stops or reroutes gradients in RL, GANs, self-supervised and sequence models, each with repositories that use it and what breaks without it.",
            "lead": (
                "Training code is full of fixed idioms whose only job is to decide where gradients flow: the "
                "target network goes under `no_grad`, the advantage is `detach()`ed, the EMA update stays out "
                "of the graph… This chapter collects the {n} that recur in widely used repositories. Each "
                "comes as the repositories write it, with what goes wrong without it (or with one `detach` too "
                "many), checked by `assert`s, and two or three repositories that write it, linked at a fixed "
                "commit."
            ),
            "by_page": "By area { #by-area }",
            "method": "How the patterns were chosen { #method }",
            "method_text": (
                "How the patterns were chosen: in December 2026 a public code index was searched for how "
                "`detach()`, `no_grad`, `requires_grad_(False)` and `.data` are used in reinforcement-learning "
                "libraries, GANs, self-supervised, sequence-model, adversarial-training and distillation code; "
                "then each candidate idiom was looked up by its telltale line: only idioms for which the search returned a full "
                "10 files (the tool's limit) made it into this chapter, and the “Sources” table at the end of "
                "each page lists the string and the hits. The repository links point at the commit and line "
                "seen when searching; the code follows how those repositories write it, cut down to a runnable "
                "example of at most 15 lines."
            ),
        },
    },
    # the "PyTorch pins this too" line (tools/chapters/pins/render.py)
    "pins": {
        "zh": {
            "only": "（只检验其中{part}）",
            "at": "（{file}，提交 {commit}）",
            "sep": "、",
            "group": "；",
            "colon": "：",
        },
        "en": {
            "only": " (only {part})",
            "at": " ({file} at {commit})",
            "sep": ", ",
            "group": "; ",
            "colon": ": ",
        },
    },
    # a page's machinery: the line under its title, its Sources (tools/build/machinery.py)
    "machinery": {
        "zh": {
            "code": "本页代码",
            "how": "怎样运行",
            "py_title": "本页全部代码，按页面顺序排成一个脚本；测试运行的就是它",
            "ipynb_title": "本页代码的笔记本，附有记录的输出",
            "checked": "已在 torch {range} 上核对",
            "differs": "（部分输出不同）",
            "fails": "（部分版本运行失败）",
            "sources": "出处",
            "pinned": "“{where}”一节讲的行为，PyTorch 自己的测试也有检验：{tests}。",
            "pinned_page": "本页讲的行为，PyTorch 自己的测试也有检验：{tests}。",
        },
        "en": {
            "code": "Code",
            "how": "how to run",
            "py_title": "All the page's code as one script, in page order; the tests run this file",
            "ipynb_title": "The page's code as a notebook, with the recorded outputs",
            "checked": "checked on torch {range}",
            "differs": " (some outputs differ)",
            "fails": " (some code fails on some releases)",
            "sources": "Sources",
            "pinned": "What “{where}” describes is pinned by PyTorch's own tests too: {tests}.",
            "pinned_page": "What this page describes is pinned by PyTorch's own tests too: {tests}.",
        },
    },
    # the changelog page (tools/chapters/changelog/render.py)
    "changelog": {
        "en": {
            "releases": "Checked releases: torch {versions}. The pages show the output of {pin}, the "
            "site's pin. A change under “{example}” was first seen on the newer of the two: it "
            "came with that release or one between them that was not checked.",
            "heading": "torch {old} → {new}",
            "behaviour_label": "Behaviour",
            "unavailable_label": "API",
            "wording_label": "Wording",
            "behaviour": "{versions}: {text} (as the page shows from torch {since} on).",
            "behaviour_until": "{versions}: {text} (torch {until} and earlier behave as the page shows).",
            "unavailable": "{versions}: `{api}` does not exist yet (it needs torch ≥ {since}).",
            "wording": "{versions}: {text}.",
            "seen": "Seen in",
            "none": "No release differs from the pin in what the site's code checks.",
        },
        "zh": {
            "releases": "核对过的版本：torch {versions}。页面上的输出来自本站固定的 {pin}。"
            "列在“{example}”下的变化最早见于两者中较新的版本：它随该版本出现，"
            "或出现在两者之间某个未核对的版本里。",
            "heading": "torch {old} → {new}",
            "behaviour_label": "行为",
            "unavailable_label": "API",
            "wording_label": "措辞",
            "behaviour": "{versions}：{text}（torch {since} 起与页面所示一致）。",
            "behaviour_until": "{versions}：{text}（torch {until} 及更早的版本与页面所示一致）。",
            "unavailable": "{versions}：还没有 `{api}`（需要 torch ≥ {since}）。",
            "wording": "{versions}：{text}。",
            "seen": "见",
            "none": "在本站代码核对的范围内，各版本与固定版本没有差别。",
        },
    },
    # the version line and notes (tools/versions/notes.py)
    "versions": {
        "en": {
            "line": "Code on this page checked with torch {versions}.",
            "reference": "{version} (outputs shown)",
            "behaviour": "On {versions}, PyTorch behaves differently: {text} "
            "(as shown here from torch {since}).",
            "behaviour_until": "On {versions}, PyTorch behaves differently: {text} "
            "(as shown here up to torch {until}).",
            "wording": "{versions}: {text} (same behaviour, other wording).",
            "unavailable": "{versions}: `{api}` does not exist yet (it needs torch ≥ {since}).",
            "unclassified": "{versions}: some output differs (see the note under the block).",
            "cuda": "needs CUDA: not run",
            "stale": "Checked on torch {versions} before the last change to {files}.",
            "missing": "Not yet checked on torch {versions}.",
            "title": "Output on other torch releases",
            "same": "torch {versions} prints the output above.",
            "same_many": "torch {versions} print the output above.",
            "since": "Of the releases checked, torch {first} and later print the output above; "
            "for {others}, see the tabs below.",
            "until": "Of the releases checked, torch {last} and earlier print the output above; "
            "for {others}, see the tabs below.",
            "tab": "torch {versions}",
            "diff": "Each tab shows only what that release prints differently: `-` lines are "
            "the output above, `+` lines what it prints instead.",
            "failed": "On torch {versions} this block fails at line {line} of `{file}`: "
            "`{code}` raises {message}",
            "failed_short": "On torch {versions} this block fails: {message}",
            "not_reached": "On torch {versions} this block does not run: an earlier block of `{file}` fails.",
            "span": "torch {versions}",
            "span_since": "since torch {first}",
            "and": ", ",
        },
        "zh": {
            "line": "本页代码已在 torch {versions} 上运行核对。",
            "reference": "{version}（页面所示输出）",
            "behaviour": "{versions} 的行为不同：{text}（torch {since} 起与本页所示一致）。",
            "behaviour_until": "{versions} 的行为不同：{text}（torch {until} 及更早的版本与本页所示一致）。",
            "wording": "{versions}：{text}（行为相同，只是措辞不同）。",
            "unavailable": "{versions}：还没有 `{api}`（需要 torch ≥ {since}）。",
            "unclassified": "{versions}：部分输出不同（见对应代码块下的说明）。",
            "cuda": "需要 CUDA，未运行",
            "stale": "在 torch {versions} 上的核对早于 {files} 的最近一次修改。",
            "missing": "尚未在 torch {versions} 上核对。",
            "title": "其他 torch 版本上的输出",
            "same": "torch {versions} 的输出与上面相同。",
            "same_many": "torch {versions} 的输出与上面相同。",
            "since": "在核对过的版本中，torch {first} 及更新的版本输出如上；{others} 的输出见下面的标签页。",
            "until": "在核对过的版本中，torch {last} 及更早的版本输出如上；{others} 的输出见下面的标签页。",
            "tab": "torch {versions}",
            "diff": "各标签页只列出该版本输出不同的地方：`-` 行是上面的输出，`+` 行是该版本打印的内容。",
            "failed": "在 torch {versions} 上，此代码块在 `{file}` 第 {line} 行失败：`{code}` 抛出 {message}",
            "failed_short": "在 torch {versions} 上，此代码块运行失败：{message}",
            "not_reached": "在 torch {versions} 上，此代码块没有运行：`{file}` 中前面的代码块已失败。",
            "span": "torch {versions}",
            "span_since": "torch {first} 起",
            "and": "、",
        },
    },
    # figures, the comparison table's glosses and outcome words (tools/site/reader_html.py)
    "site.reader_html": {
        "zh": {
            "figure_label": "图 {n}",
            "figure_sep": "：",
            "zoom_title": "点击查看原图",
            "figure_cue": "在手机上可左右滑动查看全图，点按打开原图。",
            "column_gloss": {
                "new": "新对象",
                "storage": "共用存储",
                "version": "共用版本计数器",
                "graph": "记录计算图",
                "grad": "梯度能流回",
                "in-place": "原地写入后反向传播",
            },
            "outcomes": {
                "error": "报错",
                "WRONG": "悄悄算错",
                "correct": "正确",
            },
        },
        "en": {
            "figure_label": "Figure {n}",
            "figure_sep": ": ",
            "zoom_title": "Open the full-size figure",
            "figure_cue": "On a phone, swipe sideways to see the whole figure; tap it to open it full size.",
            "column_gloss": {
                "new": "new object",
                "storage": "shares storage",
                "version": "shares version counter",
                "graph": "records the graph",
                "grad": "gradient flows back",
                "in-place": "in-place write, then backward",
            },
            "outcomes": {
                "error": "error",
                "WRONG": "WRONG",
                "correct": "correct",
            },
        },
    },
}
