"""The line budget of STYLE.md rule 21: lines of code per Python file, not counting blank lines,
comments or docstrings (a string that opens a module, class or function).

Usage: python .ci/code_lines.py FOLDER...   prints each file's count, largest first, marks the files over
400 lines of code, and exits with status 1 when one is over 600.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

TARGET = 400
LIMIT = 600
_LAYOUT = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def docstring_lines(tree: ast.Module) -> set[int]:
    """The line numbers of every docstring of the module, its classes and its functions."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(source: str) -> int:
    """How many lines of `source` hold code: a token other than a comment, outside docstrings."""
    skip = docstring_lines(ast.parse(source))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in _LAYOUT or token.type == tokenize.ENDMARKER:
            continue
        lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in skip)
    return len(lines)


def main(folders: list[str]) -> int:
    counts = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                counts.append((code_lines(path.read_text("utf-8")), str(path)))
    over = False
    for count, path in sorted(counts, key=lambda c: (-c[0], c[1])):
        mark = ""
        if count > LIMIT:
            mark, over = f"  <- over {LIMIT} lines of code", True
        elif count > TARGET:
            mark = f"  <- over {TARGET} lines of code"
        print(f"{count:6d}  {path}{mark}")
    print(f"{sum(c for c, _ in counts):6d}  total")
    if over:
        print(
            f"some files are over {LIMIT} lines of code: split them by concern (STYLE.md, rule 21)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
