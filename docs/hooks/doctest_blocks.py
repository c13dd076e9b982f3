"""MkDocs hook: doctest blocks in docstrings render as code, as numpydoc renders them.

NumPy-style docstrings write examples as bare `>>>` lines. Griffe turns those of an Examples section into
code, but docstrings that quote another library's documentation (arraystack.random quotes NumPy's) carry
them inside other sections too, where Markdown would read `>>>` as nested quotes and `a[1][0:-1]` as a
reference link. This hook adds a Markdown preprocessor that fences every run of lines from a `>>>` line
to the next blank line as a `pycon` block, outside existing fences; mkdocstrings converts docstrings with
the site's Markdown extensions, so it applies to them too.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority

_FENCE = re.compile(r"^\s*(```|~~~)")
_PROMPT = re.compile(r"^(\s*)>>>( |$)")


def fence_doctests(lines: list[str]) -> list[str]:
    """The lines with each doctest block (a `>>>` line up to the next blank line) fenced as pycon."""
    out: list[str] = []
    fence = None
    block_indent = None
    for line in lines:
        if block_indent is not None:
            if line.strip():
                out.append(line)
                continue
            out.append(block_indent + "```")
            block_indent = None
        marker = _FENCE.match(line)
        if marker:
            fence = None if fence == marker.group(1) else fence or marker.group(1)
        elif fence is None and (prompt := _PROMPT.match(line)):
            block_indent = prompt.group(1)
            if out and out[-1].strip():
                out.append("")
            out.append(block_indent + "```pycon")
        out.append(line)
    if block_indent is not None:
        out.append(block_indent + "```")
    return out


class _DoctestPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return fence_doctests(lines)


class DoctestBlocks(Extension):
    def extendMarkdown(self, md) -> None:
        # after whitespace normalization (priority 30), before fenced code blocks are read (25)
        md.preprocessors.register(_DoctestPreprocessor(md), "doctest_blocks", 28)


@event_priority(100)  # before mkdocstrings copies the site's Markdown extensions
def on_config(config):
    config.markdown_extensions.append(DoctestBlocks())
    return config
