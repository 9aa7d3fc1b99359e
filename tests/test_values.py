"""The frozen value classes (``bakersdozen._values``) behave as frozen slots dataclasses did.

Card, Move, Deal, Rules, Solution, CheckResult and the board reader's
records are made by :func:`bakersdozen._values.frozen_value` instead of
``@dataclass(frozen=True, slots=True)``, so that ``import bakersdozen``
does not load :mod:`dataclasses` (and :mod:`inspect`).  Each test here
compares with a real dataclass of the same fields, the reference.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from bakersdozen import BAKERS_DOZEN, Card, Deal, Move, Rules, Solution, Suit, Verdict, check
from bakersdozen._values import frozen_value, replace
from bakersdozen.check import CheckResult
from bakersdozen.notation import BoardText, read_board


def _values() -> list[object]:
    deal = Deal.pysol(1)
    moves = (Move.from_text("AD 1>F"),)
    return [
        Card.from_text("7C"),
        Move.from_text("7C 1>2"),
        deal,
        BAKERS_DOZEN,
        BAKERS_DOZEN.replace(build="same_suit", moves="sequence"),
        Solution(Verdict.SOLVED, moves, nodes=5, seconds=0.25, lower_bound=1, optimal=True),
        check(deal, moves),
        read_board(deal.to_text()),
    ]


VALUES = _values()
IDS = [type(v).__name__ for v in VALUES]


@frozen_value
class _Point:
    """A value class made here: two fields, one with a default."""

    x: int
    y: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class _RefPoint:
    """The reference: the same fields as a frozen slots dataclass."""

    x: int
    y: int = 0


def test_the_package_values_are_frozen_values() -> None:
    for cls in (Card, Move, Deal, Rules, Solution, CheckResult, BoardText):
        assert "__dict__" not in dir(cls) and cls.__slots__ == cls.__match_args__
        assert type(cls.__dict__["__dataclass_fields__"]).__name__ == "_LazyFields"
        assert cls.__init__.__module__ == cls.__module__


def test_same_methods_as_a_dataclass() -> None:
    point, ref = _Point(1, 2), _RefPoint(1, 2)
    assert repr(point) == repr(ref).replace("_RefPoint", "_Point")
    assert hash(point) == hash(ref) == hash((1, 2))
    assert point == _Point(1, 2) and point != _Point(1, 3) and point != ref
    assert point.__eq__((1, 2)) is NotImplemented
    assert str(inspect.signature(_Point)) == str(inspect.signature(_RefPoint))
    assert _Point.__init__.__qualname__ == "_Point.__init__"
    assert _Point.__match_args__ == _RefPoint.__match_args__ == ("x", "y")
    assert not hasattr(point, "__dict__")
    match point:
        case _Point(a, b):
            assert (a, b) == (1, 2)


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_frozen(value: object) -> None:
    first = type(value).__match_args__[0]  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{first}'"):
        setattr(value, first, 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{first}'"):
        delattr(value, first)
    with pytest.raises(AttributeError):
        value.not_a_field = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_pickle_copy_and_dataclasses_functions(value: object) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(value, protocol))
        assert again == value and hash(again) == hash(value) and type(again) is type(value)
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert dataclasses.is_dataclass(value)
    names = [field.name for field in dataclasses.fields(value)]  # type: ignore[arg-type]
    assert tuple(names) == type(value).__match_args__  # type: ignore[attr-defined]
    assert dataclasses.replace(value) == value  # type: ignore[type-var]
    assert replace(value) == value


def test_pickle_state_is_the_dataclass_state() -> None:
    # a pickle written by a version with dataclasses reads back, and the other way round
    assert _Point(1, 2).__getstate__() == _RefPoint(1, 2).__getstate__() == [1, 2]  # type: ignore[attr-defined]
    assert Card(7, Suit.CLUBS).__getstate__() == [7, Suit.CLUBS]  # type: ignore[attr-defined]


def test_replace_and_fields_keep_post_init_checks() -> None:
    deal = Deal.pysol(1)
    with pytest.raises(ValueError, match="foundation rank"):
        dataclasses.replace(deal, foundations=(14, 0, 0, 0))
    assert dataclasses.replace(Card.from_text("7C"), rank=8) == Card.from_text("8C")
    with pytest.raises(TypeError):
        replace(Card.from_text("7C"), colour=1)
    defaults = {f.name: f.default for f in dataclasses.fields(Deal)}
    assert defaults["foundations"] == (0, 0, 0, 0) and defaults["rules"] is BAKERS_DOZEN
    assert defaults["columns"] is dataclasses.MISSING
    assert dataclasses.asdict(Card.from_text("7C")) == {"rank": 7, "suit": Suit.CLUBS}
    assert dataclasses.astuple(Move.from_text("7C 1>2")) == ((7, Suit.CLUBS), 1, 2)


def test_order() -> None:
    cards = [Card.from_text(text) for text in ("KS", "AD", "AC", "7H")]
    assert [str(c) for c in sorted(cards)] == ["AC", "AD", "7H", "KS"]
    assert Card.from_text("AS") < Card.from_text("2C") <= Card.from_text("2C")
    assert Card.from_text("KC") > Card.from_text("QS") >= Card.from_text("QS")
    with pytest.raises(TypeError):
        Card.from_text("AC") < (1, 0)  # type: ignore[operator]  # noqa: B015


def test_refused_definitions() -> None:
    with pytest.raises(TypeError, match="without a default follows"):
        @frozen_value
        class _Bad:
            a: int = 1
            b: int

    with pytest.raises(TypeError, match="mutable default"):
        @frozen_value
        class _Mutable:
            a: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="defines __lt__"):
        @frozen_value(order=True)
        class _Ordered:
            a: int

            def __lt__(self, other: object) -> bool:
                return False
