"""The documentation site (mkdocs.yml, docs/) builds with `mkdocs build --strict`: any warning fails, a
broken link, an unknown page or a docstring reference that does not resolve among them. The API reference
documents every public name of the top-level namespace once, the guide's Python blocks run as they are,
and each benchmark script writes its own section of the benchmarks page.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

import arraystack

ROOT = pathlib.Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"


def load_hook(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    page = (tmp_path / "site" / "api" / "ufuncs" / "index.html").read_text("utf-8")
    start = page.index('id="arraystack.sin"')  # a factory-made ufunc, documented as a function
    entry = page[start : page.index("<h2 ", start)]  # up to the next name's heading
    assert "<table" in entry and "Trigonometric sine" in entry, (
        "its docstring's sections are parsed"
    )


def documented_names() -> list:
    """Each public name an API page documents: listed members of `::: arraystack`, and the modules
    documented whole (`::: arraystack.linalg`)."""
    names = []
    for page in sorted(API.glob("*.md")):
        text = page.read_text("utf-8")
        for block in re.findall(r"^::: arraystack\n((?:    .*\n)+)", text, re.MULTILINE):
            names += re.findall(r"^        - (\S+)$", block, re.MULTILINE)
        names += re.findall(r"^::: arraystack\.(\w+)$", text, re.MULTILINE)
    return names


def test_the_api_reference_documents_every_public_name_once():
    names = documented_names()
    repeated = sorted({n for n in names if names.count(n) > 1})
    assert repeated == []
    public = set(arraystack.__all__)
    assert sorted(public - set(names)) == []
    assert sorted(set(names) - public) == ["ir"]  # arraystack.ir: imported by name, not in __all__


def test_doctest_blocks_in_docstrings_are_fenced_as_code_outside_existing_fences():
    fence = load_hook("doctest_blocks").fence_doctests
    lines = [
        "Text",
        ">>> a[1][0:-1]",
        "array([1])",
        "",
        "```python",
        ">>> kept",
        "```",
        "    >>> x",
    ]
    assert fence(lines) == [
        "Text",
        "",
        "```pycon",
        ">>> a[1][0:-1]",
        "array([1])",
        "```",
        "",
        "```python",
        ">>> kept",
        "```",
        "",
        "    ```pycon",
        "    >>> x",
        "    ```",
    ]


def test_a_docstring_indented_by_three_spaces_is_read_as_one_indented_by_four():
    reindent = load_hook("docstrings").reindent
    assert (
        reindent("x : int\n   The value.\n      More.\n")
        == "x : int\n    The value.\n        More.\n"
    )
    assert reindent("x : int\n    The value.\n") == "x : int\n    The value.\n"
    assert reindent("x : int\n    The value.\n   odd\n") == "x : int\n    The value.\n   odd\n"


GUIDE_PAGES = (
    sorted((ROOT / "docs" / "guide").glob("*.md"))
    + sorted((ROOT / "docs" / "internals").glob("*.md"))
    + [API / "scipy.md"]
)
GUIDE_BLOCKS = [
    (page.name, k, block)
    for page in GUIDE_PAGES
    for k, block in enumerate(
        re.findall(r"^```python\n(.*?)^```$", page.read_text("utf-8"), re.MULTILINE | re.DOTALL)
    )
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "page, k, code", GUIDE_BLOCKS, ids=[f"{page}-block{k}" for page, k, _ in GUIDE_BLOCKS]
)
def test_every_python_block_of_the_guide_runs(page, k, code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code, "utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{page} block {k}:\n{code}\n{done.stderr}"
    assert "Warning" not in done.stderr, done.stderr


def load_harness():
    spec = importlib.util.spec_from_file_location("harness", ROOT / "benchmarks" / "harness.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_benchmark_script_has_its_section_on_the_benchmarks_page():
    harness = load_harness()
    page = (ROOT / "docs" / "benchmarks.md").read_text("utf-8")
    scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    writing = {}
    for script in scripts:
        found = re.search(
            r'markdown_section\(\s*args\.markdown, "(\w+)"', script.read_text("utf-8")
        )
        if found:
            writing[found.group(1)] = script.name
    assert {"jit", "train", "patterns", "eager", "memory", "passes"} <= set(writing)
    for name, script in writing.items():
        begin, end = harness.begin_marker(name), harness.end_marker(name)
        assert page.count(begin) == 1 and page.count(end) == 1, name
        section = page[page.index(begin) : page.index(end)]
        assert f"python benchmarks/{script}" in section, (name, section[:300])


def test_a_benchmark_rewrites_its_own_section_and_keeps_the_others():
    harness = load_harness()
    page = harness.replace_section("# Benchmarks\n", "a", "old a")
    page = harness.replace_section(page, "b", "b's table")
    page = harness.replace_section(page, "a", "new a")
    assert "old a" not in page and page.count("new a") == 1 and page.count("b's table") == 1
    assert page.index("new a") < page.index("b's table")
    assert (
        harness.command_line(
            ["--quick", "--markdown", "docs/benchmarks.md", "--threads", "1"],
            str(ROOT / "benchmarks" / "bench_jit.py"),
        )
        == "python benchmarks/bench_jit.py --quick --threads 1"
    )


def error_classes() -> dict:
    """{class name: module} of every exception class arraystack defines (private ones aside)."""
    import importlib as imports
    import inspect
    import pkgutil

    import arraystack.backends
    import arraystack.ir

    found = {}
    for package in (arraystack, arraystack.ir, arraystack.backends):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = imports.import_module(info.name)
            for name, value in vars(module).items():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == info.name
                    and not name.startswith("_")
                ):
                    found[name] = info.name
    return found


@pytest.mark.slow  # imports every module
def test_the_troubleshooting_page_names_every_error_class():
    page = (ROOT / "docs" / "guide" / "troubleshooting.md").read_text("utf-8")
    found = error_classes()
    assert {"TracerError", "PassError", "PlanError"} <= set(found)
    missing = sorted(f"{name} ({module})" for name, module in found.items() if name not in page)
    assert missing == []
