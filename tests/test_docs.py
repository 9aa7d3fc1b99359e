"""The documentation: example outputs in README.md and docs/*.md against the
real ones, and the Sphinx site (user guide and API reference) built with every
warning an error.

The site is built when Sphinx is installed (``pip install ".[docs]"``) and
skipped otherwise, unless ``BAKERSDOZEN_REQUIRE_DOCS=1`` (CI), which makes a
missing Sphinx a failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bakersdozen

from bakersdozen import Deal, solve
from bakersdozen.errors import ParseError
from bakersdozen.model import parse_board
from bakersdozen.records import Record

ROOT = Path(__file__).resolve().parent.parent


def _text(name: str) -> str:
    path = ROOT / name
    if not path.exists():  # an installed package without its checkout
        pytest.skip(f"{name} not found")
    return " ".join(path.read_text(encoding="utf-8").split())


def _deal_1_record() -> dict[str, object]:
    solution = solve(Deal.pysol(1))
    return Record.from_solution(1, solution, time_limit=10.0, max_nodes=None,
                                memory_mb=512.0, seed=0, game="bakers_dozen").to_json()


def test_survey_md_example_record_is_deal_1s() -> None:
    line = re.search(r'\{"deal":1,.*?,\.\.\.\]\}', _text("docs/survey.md"))
    assert line, "docs/survey.md: no example record of deal 1"
    shown = json.loads(line.group(0).replace(",...]", "]"))
    real = _deal_1_record()
    for key in ("seconds", "moves"):
        shown.pop(key)
        real.pop(key)
    assert shown == real


def test_readme_solve_json_example_is_deal_1s() -> None:
    found = re.search(r'"nodes": (\d+), "length": (\d+), \.\.\., "optimal": (\w+), '
                      r'"lower_bound": (\d+),', _text("README.md"))
    assert found, "README.md: no solve --json example"
    real = _deal_1_record()
    assert found.groups() == (str(real["nodes"]), str(real["length"]),
                              json.dumps(real["optimal"]), str(real["lower_bound"]))


def _error(lines: list[str]) -> str:
    try:
        parse_board("\n".join(lines) + "\n")
    except ParseError as error:
        return str(error)
    raise AssertionError("the board was read")


def test_notation_md_error_examples_are_the_real_messages() -> None:
    text = _text("docs/notation.md")
    deal_1 = Deal.pysol(1).to_text().splitlines()
    bad_token = list(deal_1)
    words = bad_token[5].split()
    bad_token[5] = " ".join([*words[:2], "JX", *words[3:]])
    duplicate = list(deal_1)
    words = duplicate[3].split()
    duplicate[3] = " ".join([*words[:3], "2♥"])
    for lines in (bad_token, duplicate, deal_1[:12]):
        assert f"`{_error(lines)}`" in text


# -- the Sphinx site --------------------------------------------------------------

#: Seconds the build may take; it takes about 20 on a loaded 2-core machine.
BUILD_TIMEOUT = 600


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Build the site once: ``sphinx -W --keep-going -b html docs OUT``; yield OUT."""
    if not (ROOT / "docs" / "conf.py").exists():
        pytest.skip("docs/conf.py not found (an installed package without its checkout)")
    if importlib.util.find_spec("sphinx") is None:
        if os.environ.get("BAKERSDOZEN_REQUIRE_DOCS") == "1":
            pytest.fail("Sphinx is not installed, and BAKERSDOZEN_REQUIRE_DOCS=1 "
                        "requires the docs build (pip install '.[docs]')")
        pytest.skip("Sphinx is not installed (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    argv = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
            str(ROOT / "docs"), str(out)]
    process = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=BUILD_TIMEOUT)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    assert process.returncode == 0, f"the docs build failed (warnings are errors):\n{output}"
    yield out


def test_sphinx_builds_the_site_without_a_warning(site: Path) -> None:
    pages = {path.name for path in site.glob("*.html")}
    guide = {path.stem + ".html" for path in (ROOT / "docs").glob("*.md")}
    assert guide | {"api.html"} <= pages


def test_api_reference_documents_every_public_name(site: Path) -> None:
    api = (site / "api.html").read_text(encoding="utf-8")
    for name in bakersdozen.__all__:
        target = "module-bakersdozen.survey" if name == "survey" else f"bakersdozen.{name}"
        assert f'id="{target}"' in api, f"docs/api.rst does not document bakersdozen.{name}"




#: README commands the example test leaves out: long runs (``survey``,
#: ``bench``, a ``--layers`` proof of 30 s), servers and a browser, the user's
#: PySolFC folder, ``report`` of a survey not made, ``tasks`` of the
#: ``--layers --jobs`` run left out, ``python -m bakersdozen ...``.
_README_SKIP = {"survey", "report", "bench", "play", "pysolfc", "serve", "tasks", "-m"}


def test_readme_command_line_examples_run_in_order(tmp_path: Path) -> None:
    # a newcomer pastes them one after the other: each file an example reads
    # (board.txt, moves.txt, position.txt) must have been made by one before it
    path = ROOT / "README.md"
    if not path.exists():
        pytest.skip("README.md not found")
    block = path.read_text(encoding="utf-8").split("## Command line", 1)[1]
    block = block.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        command = line.split(" # ")[0].strip()
        if command and command.split()[1] not in _README_SKIP and "--layers" not in command:
            commands.append(command)
    assert len(commands) >= 10
    me = f"{sys.executable} -m bakersdozen"
    for command in commands:
        assert command.startswith("bakersdozen ")
        run = subprocess.run(me + command[len("bakersdozen"):], shell=True, cwd=tmp_path,
                             capture_output=True, text=True, timeout=120,
                             stdin=subprocess.DEVNULL)
        assert run.returncode in (0, 1, 3), f"{command!r}: {run.returncode} {run.stderr}"
