"""The package's layers: no import cycles, the CLI on top, a light ``import bakersdozen``.

The import graph is read from the source with :mod:`ast` (every ``import``
statement, also those inside functions; not those under ``if TYPE_CHECKING:``,
which never run).  The checker is itself tested on small packages written
here, with a planted cycle and a planted upward import.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import children

import bakersdozen

PACKAGE = Path(bakersdozen.__file__).parent

#: Compiled modules: leaves of the graph (they import nothing of the package).
_COMPILED = ("*.pyx", "*.pyi", "*.so", "*.pyd")


def _modules(root: Path, name: str) -> dict[str, Path]:
    """Module name to source file, for every .py file of the package at *root*."""
    found = {}
    for pattern in _COMPILED:
        for path in root.rglob(pattern):
            parts = list(path.relative_to(root).parts)
            parts[-1] = parts[-1].split(".")[0]
            found[".".join([name, *parts])] = path
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([name, *parts])] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (skips ``if TYPE_CHECKING:`` bodies)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]))
            continue
        yield from _imports(node)


def import_graph(root: Path, name: str) -> dict[str, set[str]]:
    """The package's modules and, for each, the package modules it imports.

    ``from X import y`` counts as importing ``X.y`` when that is a module of
    the package, else ``X``.  Implicit imports of parent packages are not
    edges (a package's ``__init__`` importing its own submodules is no cycle).
    """
    modules = _modules(root, name)
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for module, path in modules.items():
        if path.suffix != ".py":
            continue
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = module.split(".")
                    if not is_package:
                        base = base[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                targets = [
                    f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]  # import a.b.c -> the deepest module
                if target in modules and target != module:
                    graph[module].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def upward_imports(
    graph: dict[str, set[str]], cli: str, entry: str | None = None
) -> list[tuple[str, str]]:
    """(module, target) for every module outside *cli* that imports *cli* or a module in it.

    *entry* (``PKG.__main__``) belongs to the command-line layer too.
    """
    def in_cli(module: str) -> bool:
        return module in (cli, entry) or module.startswith(cli + ".")

    return sorted(
        (module, target)
        for module, targets in graph.items() if not in_cli(module)
        for target in targets if in_cli(target)
    )


# -- the checker, on packages written here -------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_checker_finds_a_planted_cycle(tmp_path: Path) -> None:
    root = _write(tmp_path, {
        "__init__.py": "from .a import f\n",
        "a.py": "from . import b\ndef f(): pass\n",
        "b.py": "def g():\n    from .c import h  # lazy, still an edge\n",
        "c.py": "import pkg.a\ndef h(): pass\n",
    })
    graph = import_graph(root, "pkg")
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.c"] == {"pkg.a"}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def test_checker_passes_a_clean_package(tmp_path: Path) -> None:
    root = _write(tmp_path, {
        "__init__.py": "from .a import f\nfrom .sub import g\n",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.x import g\n"
                "def f(): pass\n",
        "sub/__init__.py": "from .x import g\n",
        "sub/x.py": "from .. import a\nfrom ..a import f\ndef g(): pass\n",
        "cli/__init__.py": "from ..sub import g\n",
    })
    graph = import_graph(root, "pkg")
    assert graph["pkg.a"] == set()  # TYPE_CHECKING imports never run
    assert graph["pkg.sub.x"] == {"pkg.a"}
    assert find_cycle(graph) is None
    assert upward_imports(graph, "pkg.cli") == []


def test_checker_finds_a_library_module_importing_the_cli(tmp_path: Path) -> None:
    root = _write(tmp_path, {
        "__init__.py": "",
        "lib.py": "def run():\n    from .cli.tool import main\n",
        "cli/__init__.py": "",
        "cli/tool.py": "from ..lib import run\ndef main(): pass\n",
    })
    graph = import_graph(root, "pkg")
    assert upward_imports(graph, "pkg.cli") == [("pkg.lib", "pkg.cli.tool")]
    assert find_cycle(graph) == ["pkg.cli.tool", "pkg.lib", "pkg.cli.tool"]


# -- the package ----------------------------------------------------------------


def _graph() -> dict[str, set[str]]:
    return import_graph(PACKAGE, "bakersdozen")


def test_no_import_cycles() -> None:
    # Imports inside functions count too: a lazy import still closes a loop.
    assert find_cycle(_graph()) is None


def test_library_never_imports_the_cli() -> None:
    graph = _graph()
    assert "bakersdozen.cli" in graph and "bakersdozen.cli.survey" in graph
    assert upward_imports(graph, "bakersdozen.cli", "bakersdozen.__main__") == []


def test_the_cli_imports_the_library() -> None:
    # the graph sees the commands' lazy imports (a sanity check of the walker)
    graph = _graph()
    assert "bakersdozen.solver" in graph["bakersdozen.cli.solve"]
    assert "bakersdozen.survey.runner" in graph["bakersdozen.cli.survey"]


#: Standard modules that cost start-up time and the package does without at
#: run time (typing only under ``if TYPE_CHECKING:``; the value classes are
#: made by ``bakersdozen._values``, not dataclasses, which imports inspect,
#: ast, dis and tokenize; random only for PySolFC's numbers from 32000 up).
_START_UP = ["typing", "dataclasses", "inspect", "ast", "dis", "tokenize", "random"]


@pytest.mark.parametrize(
    ("statement", "absent"),
    [
        ("import bakersdozen", ["argparse", "tqdm", "bakersdozen.cli", "bakersdozen.survey",
                                "bakersdozen.stats", "importlib.metadata", "concurrent.futures",
                                "multiprocessing", "filelock", "csv", "dask", "distributed",
                                *_START_UP]),
        ("import bakersdozen.cli", ["tqdm", "bakersdozen.survey", "bakersdozen.bench",
                                    "importlib.metadata", "concurrent.futures", "filelock",
                                    "dask", "distributed", *_START_UP]),
        # the command bench/startup.py times, run in this process
        ("from bakersdozen.cli import main; main(['solve', '--deal', '1'])",
         ["bakersdozen.records", "bakersdozen.analysis", "json", *_START_UP]),
        # a survey on this process or worker processes never loads Dask
        ("from bakersdozen.survey import survey; list(survey([1, 2], jobs=1))",
         ["dask", "distributed", "bakersdozen.survey.cluster"]),
    ],
)
def test_import_is_light(statement: str, absent: list[str]) -> None:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    done = children.run([sys.executable, "-c", code], timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "bakersdozen" in loaded
    assert sorted(loaded & set(absent)) == []


def test_public_typing_names_still_import() -> None:
    # deals.Numbering (a Literal, in deals.__all__) is made on first use, so
    # that the module need not import typing when it loads
    import typing

    from bakersdozen import deals
    from bakersdozen.deals import Numbering

    assert typing.get_args(Numbering) == deals.NUMBERINGS == ("pysolfc", "pysol")
    with pytest.raises(AttributeError, match="no attribute 'Numbring'"):
        deals.Numbring  # noqa: B018


def _closure(graph: dict[str, set[str]], start: str) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        for target in graph[stack.pop()]:
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


#: What an independent checker may never reach: the compiled engine, the
#: modules that drive it, and the certificate writer.
_ENGINE = {"bakersdozen.solver", "bakersdozen.certificate", "bakersdozen.analysis",
           "bakersdozen.winnability", "bakersdozen.bench", "bakersdozen"}


@pytest.mark.parametrize("checker", ["bakersdozen.check", "bakersdozen.verify"])
def test_the_independent_checkers_share_nothing_with_the_engine(checker: str) -> None:
    # check.py replays winning lines, verify.py checks certificates of lost
    # deals: neither may import a compiled module or anything of the search,
    # even through another module (the package's own __init__ is not an edge).
    graph = _graph()
    reached = _closure(graph, checker)
    compiled = {m for m, path in _modules(PACKAGE, "bakersdozen").items() if path.suffix != ".py"}
    assert compiled and "bakersdozen._position" in compiled
    assert sorted(reached & (compiled | _ENGINE)) == []
    # bakersdozen._values (the value classes' methods) and _version are plain Python
    assert not any(m.startswith(("bakersdozen._", "bakersdozen.survey", "bakersdozen.cli"))
                   for m in reached - {checker, "bakersdozen._values", "bakersdozen._version"})


def test_the_engine_check_of_independence_can_fail() -> None:
    # the same walk does see the engine from the writer and the solver
    graph = _graph()
    assert "bakersdozen._layers" in _closure(graph, "bakersdozen.solver")
    assert "bakersdozen.verify" in _closure(graph, "bakersdozen.certificate")

