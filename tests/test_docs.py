"""Example outputs printed in README.md and docs/*.md, against the real ones."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

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
