"""The PySolFC wrapper (bakersdozen.pysolfc) and ``bakersdozen pysolfc``.

PySolFC is not on the package index, so the games are built here as
PySolFC builds them (``pysollib/games/bakersdozen.py``, ``pysollib/stack.py``,
``pysollib/acard.py`` at commit 7a3d146a): cards with ``suit`` in PySol's
order (0 clubs, 1 spades, 2 hearts, 3 diamonds), ``rank`` 0..12,
``color = suit // 2`` and ``face_up``; ``game.s.rows`` and
``game.s.foundations`` whose ``cards`` lists run bottom → top and whose
``acceptsCards`` follow the stack classes each game uses.  The layout of
deal N is ``Deal.pysol(N, game)`` (PySolFC's shuffle and deal hooks, tested
in test_deals.py), dealt onto those stacks as each game's ``startGame``
does.  The tests then make the calls PySolFC's Solver dialog makes
(``pysollib/ui/tktile/solverdialog.py``: ``Solver_Class(game, dialog)``,
``config``, ``computeHints``, ``len(hints) - 1``, ``solver_state``) and
play the demo as ``Game.playOneDemoMove`` does, and replay every line with
``check()``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bakersdozen import FOUNDATION, Card, Deal, Move, Suit, check, find_rules
from bakersdozen.cli import main
from bakersdozen.pysolfc import (
    PLUGIN_NAME, PYSOL_CLASSES, PySolFCError, PySolFCSolver, install_plugin, install_solvers,
    line_to_hints, plugin_source, read_position, uninstall_plugin,
)

# pysollib/util.py
ACE, KING, ANY_SUIT, ANY_RANK, NO_RANK = 0, 12, -1, -1, 999999
# PySol's suit of each of our suits (C, D, H, S) and back.
TO_PYSOL = {Suit.CLUBS: 0, Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3}


class PCard:
    """pysollib.acard.AbstractCard's model fields."""

    def __init__(self, id: int, suit: int, rank: int, face_up: int = 1) -> None:
        self.id, self.deck, self.suit, self.rank = id, 0, suit, rank
        self.color = suit // 2
        self.face_up = face_up

    def __repr__(self) -> str:
        return f"PCard({'A23456789TJQK'[self.rank]}{'CSHD'[self.suit]}, up={self.face_up})"


class Stack:
    """pysollib.stack.Stack's model: cards bottom -> top, a cap, basicAcceptsCards."""

    def __init__(self, game: Any, **cap: Any) -> None:
        self.game = game
        defaults = dict(suit=ANY_SUIT, color=-1, rank=ANY_RANK, base_suit=ANY_SUIT, base_color=-1,
                        base_rank=ANY_RANK, dir=0, mod=8192, max_move=0, max_accept=0,
                        min_accept=1, max_cards=999999)
        defaults.update(cap)
        self.cap = SimpleNamespace(**defaults)
        self.cards: list[PCard] = []

    def basicAcceptsCards(self, from_stack: Stack, cards: list[PCard]) -> bool:  # noqa: N802
        cap = self.cap
        if from_stack is self or not cap.min_accept <= len(cards) <= cap.max_accept:
            return False
        if len(cards) + len(self.cards) > cap.max_cards:
            return False

        def wrong(c: PCard, suit: int, color: int, rank: int) -> bool:
            return ((suit >= 0 and c.suit != suit) or (color >= 0 and c.color != color)
                    or (rank >= 0 and c.rank != rank))

        if any(not c.face_up or wrong(c, cap.suit, cap.color, cap.rank) for c in cards):
            return False
        if self.cards:
            return bool(self.cards[-1].face_up)
        return not wrong(cards[0], cap.base_suit, cap.base_color, cap.base_rank)


class SS_FoundationStack(Stack):  # noqa: N801 (PySolFC's names)
    def __init__(self, game: Any, suit: int, **cap: Any) -> None:
        cap.setdefault("base_suit", suit)
        super().__init__(game, **{"suit": suit, "base_rank": ACE, "dir": 1, "max_accept": 1,
                                  "max_cards": 13, "mod": 8192, **cap})

    def acceptsCards(self, from_stack: Stack, cards: list[PCard]) -> bool:  # noqa: N802
        if not self.basicAcceptsCards(from_stack, cards):
            return False
        return not self.cards or (self.cards[-1].rank + self.cap.dir) % self.cap.mod == cards[0].rank


class AC_FoundationStack(SS_FoundationStack):  # noqa: N801
    def __init__(self, game: Any, suit: int) -> None:
        super().__init__(game, ANY_SUIT, base_suit=suit)

    def acceptsCards(self, from_stack: Stack, cards: list[PCard]) -> bool:  # noqa: N802
        if not super().acceptsCards(from_stack, cards):
            return False
        return not self.cards or cards[0].color != self.cards[-1].color


def _face_up(cards: list[PCard]) -> bool:
    return all(c.face_up for c in cards)


class RK_RowStack(Stack):  # noqa: N801
    def __init__(self, game: Any, **cap: Any) -> None:
        super().__init__(game, **{"dir": -1, "base_rank": ANY_RANK, "max_move": 999999,
                                  "max_accept": 999999, **cap})

    def _isSequence(self, cards: list[PCard]) -> bool:  # noqa: N802
        return _face_up(cards) and all(
            (a.rank + self.cap.dir) % self.cap.mod == b.rank for a, b in zip(cards, cards[1:]))

    def acceptsCards(self, from_stack: Stack, cards: list[PCard]) -> bool:  # noqa: N802
        if not self.basicAcceptsCards(from_stack, cards) or not self._isSequence(cards):
            return False
        return not self.cards or self._isSequence([self.cards[-1], *cards])


class SuperMoveAC_RowStack(RK_RowStack):  # noqa: N801
    def _isSequence(self, cards: list[PCard]) -> bool:  # noqa: N802
        return super()._isSequence(cards) and all(
            a.color != b.color for a, b in zip(cards, cards[1:]))

    def _getMaxMove(self, to_stack_ncards: int) -> int:  # noqa: N802
        max_move = 0 + 1                  # no reserves
        if self.cap.base_rank != ANY_RANK:
            return max_move
        n = sum(1 for r in self.game.s.rows if not r.cards)
        if to_stack_ncards == 0:
            n -= 1
        return max_move << max(n, 0)

    def acceptsCards(self, from_stack: Stack, cards: list[PCard]) -> bool:  # noqa: N802
        return super().acceptsCards(from_stack, cards) and len(cards) <= self._getMaxMove(
            len(self.cards))


# Each game's row stack (RowStack_Class) and foundation class, pysollib/games/bakersdozen.py.
ROWS: dict[str, tuple[type, dict[str, int]]] = {
    "bakers_dozen": (RK_RowStack, dict(max_move=1, max_accept=1, base_rank=NO_RANK)),
    "spanish_patience": (RK_RowStack, dict(max_move=1, max_accept=1, base_rank=NO_RANK)),
    "good_measure": (RK_RowStack, dict(max_move=1, max_accept=1, base_rank=NO_RANK)),
    "portuguese_solitaire": (RK_RowStack, dict(base_rank=KING, max_move=1)),
    "spanish_patience_ii": (RK_RowStack, dict(max_move=1)),
    "castles_in_spain": (SuperMoveAC_RowStack, {}),
}
GAME_IDS = {"bakers_dozen": 31, "castles_in_spain": 83, "spanish_patience": 85, "good_measure": 86,
            "portuguese_solitaire": 308, "spanish_patience_ii": 664}


class Dialog:
    """The Solver dialog's side: setText, and the result text of startSolving."""

    def __init__(self) -> None:
        self.figures: dict[str, Any] = {}

    def setText(self, **kw: Any) -> None:  # noqa: N802
        self.figures.update(kw)


def make_game(preset: str, number: int) -> Any:
    """PySolFC's game *preset* after dealing deal *number*."""
    rules = find_rules(preset)
    deal = Deal.pysol(number, preset)

    class Game:
        Solver_Class = PySolFCSolver(preset)

    game = Game()
    game.id = GAME_IDS[preset]
    game.gameinfo = SimpleNamespace(id=game.id, decks=1)
    row_class, cap = ROWS[preset]
    foundation_class = AC_FoundationStack if preset == "spanish_patience" else SS_FoundationStack
    game.s = SimpleNamespace(
        rows=[row_class(game, **cap) for _ in range(rules.columns)],
        foundations=[foundation_class(game, suit) for suit in range(4)],
        talon=Stack(game), reserves=[], internals=[Stack(game)],
    )
    # CastlesInSpain.startGame: three rows face down, then one face up;
    # the other games deal every row face up.
    down = 3 if preset == "castles_in_spain" else 0
    ident = 0
    for row, column in zip(game.s.rows, deal.columns):
        for k, card in enumerate(column):
            row.cards.append(PCard(ident, TO_PYSOL[card.suit], card.rank - 1, int(k >= down)))
            ident += 1
    # GoodMeasure.startGame: the two Aces taken out go to foundations[c.suit].
    for suit, height in zip(Suit, deal.foundations):
        if height:
            game.s.foundations[TO_PYSOL[suit]].cards.append(PCard(ident, TO_PYSOL[suit], ACE))
            ident += 1
    return game


def start_solving(game: Any, max_iters: int = 100000) -> tuple[Any, str]:
    """BaseSolverDialog.startSolving: the solver and the dialog's result text."""
    dialog = Dialog()
    solver = game.Solver_Class(game, dialog)
    game.solver = solver
    solver.config(preset="none", max_iters=max_iters, progress=False, iters_step=100)
    solver.computeHints()
    found = len(solver.hints) - 1
    if found > 0:
        verb = "hinted" if solver.solver_state == "intractable" else "solvable"
        text = f"This game is {verb} in {found} moves."
    elif solver.solver_state == "unsolved":
        text = "I could not solve this game."
    else:
        text = "Iterations count exceeded (Intractable)"
    assert dialog.figures["iter"] == solver.solution.nodes
    return solver, text


def our_card(card: PCard) -> Card:
    return Card(card.rank + 1, (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)[card.suit])


def hints_as_moves(game: Any, deal: Deal, hints: list[Any]) -> list[Move]:
    """The hint list as moves, read off a copy of the columns (not the wrapper's code)."""
    assert hints[-1] is None
    columns = [list(column) for column in deal.columns]
    moves = []
    for ncards, source, target in hints[:-1]:
        s = game.s.rows.index(source)
        card = columns[s][-ncards]
        unit = columns[s][-ncards:]
        del columns[s][-ncards:]
        if target is None:
            assert ncards == 1
            moves.append(Move(card, s + 1, FOUNDATION))
        else:
            t = game.s.rows.index(target)
            columns[t].extend(unit)
            moves.append(Move(card, s + 1, t + 1))
    return moves


def play_demo(game: Any, solver: Any, limit: int | None = None) -> int:
    """Game.playOneDemoMove at level 3 until the solver has no hint; the moves played."""
    taken = None
    moves = 0
    while limit is None or moves < limit:
        hints = solver.getHints(taken)
        if not hints:
            break
        assert len(hints) == 1
        hint = hints[0]
        score, pos, ncards, source, target, color, forced = hint
        assert len(hint) == 7 and forced is None or len(forced) == 7
        if source is target:                       # a flip
            assert ncards == 1 and not source.cards[-1].face_up
            source.cards[-1].face_up = 1
        else:                                      # showHint's paranoia checks, then moveMove
            unit = source.cards[-ncards:]
            assert target.acceptsCards(source, unit), (hint, unit, target.cards[-1:])
            del source.cards[-ncards:]
            target.cards.extend(unit)
            moves += 1
        taken = hint
    return moves


def won(game: Any) -> bool:
    return sum(len(f.cards) for f in game.s.foundations) == 52 and not any(
        r.cards for r in game.s.rows)


# A handful of deals per game: deal 24 of each, others, and one the
# published tables have as unsolvable (the first in 1..400 of each).
SOLVED = {
    "bakers_dozen": (1, 2, 24, 300, 31999),
    "spanish_patience": (1, 24, 77),
    "spanish_patience_ii": (3, 24, 90),
    "castles_in_spain": (1, 24, 30),
    "portuguese_solitaire": (5, 24, 101),
    "good_measure": (2, 24, 67),
}
UNSOLVABLE = {"bakers_dozen": 64, "spanish_patience": 64, "spanish_patience_ii": 14,
              "castles_in_spain": 6, "portuguese_solitaire": 14, "good_measure": 1}


@pytest.mark.parametrize(
    "preset,number", [(p, n) for p, numbers in SOLVED.items() for n in numbers])
def test_the_dialog_solves_and_the_demo_wins(preset: str, number: int) -> None:
    game = make_game(preset, number)
    deal = read_position(game, preset)
    assert deal == Deal.pysol(number, preset)
    solver, text = start_solving(game)
    assert solver.solver_state == "solved"
    moves = hints_as_moves(game, deal, solver.hints)
    assert text == f"This game is solvable in {len(moves)} moves."
    assert check(deal, moves).won
    assert play_demo(game, solver) == len(moves)
    assert won(game)
    assert solver.getHints(None) is None


@pytest.mark.parametrize("preset", list(SOLVED))
def test_solving_again_in_the_middle_of_a_game(preset: str) -> None:
    game = make_game(preset, 24)
    first, _ = start_solving(game)
    played = play_demo(game, first, limit=15)
    assert played == 15
    middle = read_position(game, preset)
    assert sum(middle.foundations) + middle.cards_left == 52
    second, text = start_solving(game)
    moves = hints_as_moves(game, middle, second.hints)
    assert text == f"This game is solvable in {len(moves)} moves."
    assert check(middle, moves).won
    play_demo(game, second)
    assert won(game)


@pytest.mark.parametrize("preset,number", list(UNSOLVABLE.items()))
def test_unsolvable_is_not_intractable(preset: str, number: int) -> None:
    game = make_game(preset, number)
    solver, text = start_solving(game, max_iters=10_000_000)
    assert (solver.solver_state, solver.hints, text) == (
        "unsolved", [None], "I could not solve this game.")
    assert solver.getHints(None) is None
    # Half the positions that proof took: intractable, never unsolved.
    # (Some deals are proven lost before any move is tried: a deadlock.)
    nodes = solver.solution.nodes
    if nodes > 1:
        solver, text = start_solving(game, max_iters=nodes // 2)
        assert solver.solver_state == "intractable"
        assert text == "Iterations count exceeded (Intractable)"


def test_the_iteration_limit_is_max_nodes() -> None:
    game = make_game("bakers_dozen", 24)
    solver, _ = start_solving(game, max_iters=5)
    assert solver.solution.reason == "max_nodes" and solver.solution.nodes <= 5
    assert solver.solver_state == "intractable" and solver.hints == [None]
    solver, _ = start_solving(game, max_iters=100000)
    assert solver.solution.nodes <= 100000 and solver.solver_state == "solved"


def test_castles_in_spain_flips_what_it_uncovers() -> None:
    game = make_game("castles_in_spain", 24)
    assert [c.face_up for c in game.s.rows[0].cards] == [0, 0, 0, 1]
    solver, _ = start_solving(game)
    flips = 0
    taken = None
    while (hints := solver.getHints(taken)) is not None:
        hint = hints[0]
        _, _, ncards, source, target, _, forced = hint
        if source is target:
            flips += 1
            source.cards[-1].face_up = 1
        else:
            below = source.cards[:-ncards]
            assert (forced is not None) == bool(below and not below[-1].face_up)
            unit = source.cards[-ncards:]
            assert target.acceptsCards(source, unit)
            del source.cards[-ncards:]
            target.cards.extend(unit)
        taken = hint
    assert flips == 39 and won(game)


def test_a_face_down_top_card_is_flipped_first() -> None:
    game = make_game("castles_in_spain", 1)
    solver, _ = start_solving(game)
    source = solver.hints[0][1]
    source.cards[-1].face_up = 0
    hint = solver.getHints(None)[0]
    assert hint[3] is hint[4] is source and hint[2] == 1
    assert solver.hints_index == 0


def test_good_measure_aces_and_kings_as_pysolfc_deals_them() -> None:
    # Deal 2 is one of the layouts with a King above a lower card.
    game = make_game("good_measure", 2)
    assert sum(len(f.cards) for f in game.s.foundations) == 2
    deal = read_position(game, "good_measure")
    assert any(c.rank == 13 and k > 0 and column[0].rank != 13
               for column in deal.columns for k, c in enumerate(column))
    assert deal.foundations == Deal.pysol(2, "good_measure").foundations


def test_spanish_patience_foundations_by_their_aces() -> None:
    game = make_game("spanish_patience", 24)
    solver, _ = start_solving(game)
    play_demo(game, solver)
    for index, pile in enumerate(game.s.foundations):
        assert pile.cards[0].suit == index and pile.cards[0].rank == ACE
        assert all(a.color != b.color for a, b in zip(pile.cards, pile.cards[1:]))


def test_another_game_gets_the_previous_solver() -> None:
    previous = []

    def fcs(game: Any, dialog: Any) -> str:
        previous.append(game)
        return "freecell solver"

    wrapper = PySolFCSolver("bakers_dozen", fallback=fcs)
    other = SimpleNamespace(id=400)          # e.g. Baker's Dozen (2 Decks)
    assert wrapper(other, Dialog()) == "freecell solver" and previous == [other]
    with pytest.raises(PySolFCError, match="not PySolFC game 400"):
        PySolFCSolver("bakers_dozen")(other, Dialog())


def test_tables_that_are_not_the_game_are_refused() -> None:
    game = make_game("bakers_dozen", 1)
    with pytest.raises(PySolFCError, match="13 columns .* Good Measure has 10"):
        read_position(game, "good_measure")
    game.s.rows[0].cards[-1].rank = 13
    with pytest.raises(PySolFCError, match="column 1, card 4: a card with rank 13"):
        read_position(game, "bakers_dozen")
    game = make_game("bakers_dozen", 1)
    game.s.talon.cards.append(PCard(99, 0, 0))
    with pytest.raises(PySolFCError, match="talon still holds 1 cards"):
        read_position(game, "bakers_dozen")
    game = make_game("bakers_dozen", 1)
    game.s.rows[1].cards.append(game.s.rows[0].cards[0])
    with pytest.raises(PySolFCError, match="not a position of Baker's Dozen"):
        read_position(game, "bakers_dozen")
    with pytest.raises(PySolFCError, match="not a PySolFC game"):
        read_position(SimpleNamespace(s=SimpleNamespace()), "bakers_dozen")
    with pytest.raises(PySolFCError, match="move 1 .* is not in column 1"):
        line_to_hints(Deal.pysol(1), [Move(Card(1, Suit.SPADES), 1, FOUNDATION)], game)


def test_unknown_games_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'klondike'"):
        PySolFCSolver("klondike")
    with pytest.raises(PySolFCError, match="is not a PySolFC game"):
        PySolFCSolver(find_rules("bakers_dozen").replace(empty_column="any_card"))
    with pytest.raises(ValueError, match="unknown game"):
        plugin_source(["freecell"])


def test_export_layout_is_board_text() -> None:
    game = make_game("good_measure", 24)
    solver = game.Solver_Class(game, object())      # the menu bar, not a dialog
    assert solver.calcBoardString() == Deal.pysol(24, "good_measure").to_text()


# --- install_solvers, as the plug-in runs it inside PySolFC ------------------


def fake_pysollib() -> tuple[Any, Any, Any]:
    """pysollib.games.bakersdozen's classes, GAME_DB and pysollib.settings, as PySolFC has them."""

    class FreeCellSolverWrapper:
        def __init__(self, **kw: Any) -> None:
            self.kw = kw

        def __call__(self, game: Any, dialog: Any) -> Any:
            return ("fcs", self.kw)

    fcs = FreeCellSolverWrapper

    class CastlesInSpain:
        Solver_Class = fcs()

    class BakersDozen(CastlesInSpain):
        Solver_Class = fcs(preset="bakers_dozen")

    class BakersDozen2Decks(BakersDozen):
        pass

    class SpanishPatience(BakersDozen):
        Solver_Class = None

    class PortugueseSolitaire(BakersDozen):
        Solver_Class = fcs(sbb="rank", esf="kings")

    class SpanishPatienceII(PortugueseSolitaire):
        Solver_Class = fcs(sbb="rank")

    class GoodMeasure(BakersDozen):
        Solver_Class = fcs(preset="good_measure")

    module = SimpleNamespace(**{c.__name__: c for c in (
        CastlesInSpain, BakersDozen, BakersDozen2Decks, SpanishPatience, PortugueseSolitaire,
        SpanishPatienceII, GoodMeasure)})
    solver_games = [83, 31, 400, 308, 664, 86]

    class GameDB:
        registered = {31, 83, 85, 86, 308, 400, 664}

        def getGamesForSolver(self) -> list[int]:  # noqa: N802
            return solver_games

        def get(self, key: int) -> Any:
            return SimpleNamespace(id=key) if key in self.registered else None

    return module, GameDB(), SimpleNamespace(USE_FREECELL_SOLVER=False)


def test_install_solvers_sets_every_game_once() -> None:
    module, db, settings = fake_pysollib()
    old = module.BakersDozen.Solver_Class
    for _ in range(2):
        chosen = install_solvers(module=module, game_db=db, settings=[settings])
        assert [r.name for r in chosen] == list(PYSOL_CLASSES)
        for name, class_name in PYSOL_CLASSES.items():
            solver = getattr(module, class_name).Solver_Class
            assert isinstance(solver, PySolFCSolver) and solver.rules.name == name
        assert module.BakersDozen.Solver_Class.fallback is old
        assert sorted(db.getGamesForSolver()) == [31, 83, 85, 86, 308, 400, 664]
        assert settings.USE_FREECELL_SOLVER is True
    # Baker's Dozen (2 Decks) inherits the wrapper, which hands it Freecell Solver.
    assert module.BakersDozen2Decks.Solver_Class(SimpleNamespace(id=400), None) == (
        "fcs", {"preset": "bakers_dozen"})


def test_install_solvers_for_some_games() -> None:
    module, db, settings = fake_pysollib()
    before = module.GoodMeasure.Solver_Class
    install_solvers(["spanish_patience"], module=module, game_db=db, settings=[settings])
    assert module.GoodMeasure.Solver_Class is before
    assert isinstance(module.SpanishPatience.Solver_Class, PySolFCSolver)
    assert module.SpanishPatience.Solver_Class.fallback is None
    with pytest.raises(PySolFCError, match="PySolFC has no class"):
        install_solvers(module=SimpleNamespace(), game_db=db, settings=[])


def test_an_unregistered_game_stays_off_the_dialog_list() -> None:
    # The dialog sorts the titles of the list's ids; an unknown id has None.
    module, db, settings = fake_pysollib()
    db.registered.discard(85)
    install_solvers(module=module, game_db=db, settings=[settings])
    assert 85 not in db.getGamesForSolver()
    assert isinstance(module.SpanishPatience.Solver_Class, PySolFCSolver)


# --- the plug-in file --------------------------------------------------------


def load_plugin(path: Path, module: Any, db: Any, settings: Any) -> None:
    """What PySolFC's loadGame does with a plug-in file, with pysollib stood in."""
    pysollib = SimpleNamespace(games=SimpleNamespace(bakersdozen=module),
                               gamedb=SimpleNamespace(GAME_DB=db), settings=settings)
    saved = {k: sys.modules.get(k) for k in (
        "pysollib", "pysollib.games", "pysollib.games.bakersdozen", "pysollib.gamedb",
        "pysollib.settings")}
    sys.modules.update({
        "pysollib": pysollib, "pysollib.games": pysollib.games,  # type: ignore[dict-item]
        "pysollib.games.bakersdozen": module, "pysollib.gamedb": pysollib.gamedb,
        "pysollib.settings": settings,
    })
    try:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value


def test_install_writes_an_importable_plugin(tmp_path: Path, monkeypatch: Any,
                                             capsys: Any) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    plugins = home / ".PySolFC" / "plugins"
    assert main(["pysolfc", "install"]) == 0
    out = capsys.readouterr().out
    path = plugins / PLUGIN_NAME
    assert out.startswith(f"wrote {path} ")
    text = path.read_text()
    assert main(["pysolfc", "install"]) == 0          # idempotent: the same one file
    assert path.read_text() == text and sorted(os.listdir(plugins)) == [PLUGIN_NAME]
    module, db, settings = fake_pysollib()
    load_plugin(path, module, db, settings)
    assert isinstance(module.SpanishPatience.Solver_Class, PySolFCSolver)
    assert 85 in db.getGamesForSolver() and settings.USE_FREECELL_SOLVER
    game = make_game("spanish_patience", 24)
    solver = module.SpanishPatience.Solver_Class(game, Dialog())
    solver.config(max_iters=100000)
    solver.computeHints()
    assert solver.solver_state == "solved"


def test_the_plugin_finds_the_package_by_its_path(tmp_path: Path) -> None:
    # A Python that does not have bakersdozen installed (no site dirs, -S)
    # still loads the plug-in, through the path it records.
    path = install_plugin(tmp_path, ["bakers_dozen"])
    script = (
        "import importlib.util, sys, types\n"
        "ns = types.SimpleNamespace\n"
        "class BakersDozen: Solver_Class = None\n"
        "db = ns(getGamesForSolver=lambda l=[]: l, get=lambda key: key)\n"
        "sys.modules['pysollib'] = ns()\n"
        "sys.modules['pysollib.games'] = ns(bakersdozen=ns(BakersDozen=BakersDozen))\n"
        "sys.modules['pysollib.games.bakersdozen'] = sys.modules['pysollib.games'].bakersdozen\n"
        "sys.modules['pysollib.gamedb'] = ns(GAME_DB=db)\n"
        f"spec = importlib.util.spec_from_file_location('p', {str(path)!r})\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print(BakersDozen.Solver_Class, db.getGamesForSolver())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                          env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "PySolFCSolver('bakers_dozen') [31]"


def test_the_plugin_without_the_package_leaves_pysolfc_alone(tmp_path: Path) -> None:
    path = tmp_path / PLUGIN_NAME
    path.write_text(plugin_source(package_path=str(tmp_path / "nowhere")))
    script = (
        "import builtins, importlib.util\n"
        "real = builtins.__import__\n"
        "def no_bd(name, *a, **k):\n"
        "    if name.startswith('bakersdozen'): raise ImportError('no ' + name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = no_bd\n"
        f"spec = importlib.util.spec_from_file_location('p', {str(path)!r})\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print('loaded')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "loaded\n"
    assert "cannot import bakersdozen" in done.stderr and "keeps its own solvers" in done.stderr


def test_uninstall_removes_only_our_file(tmp_path: Path, capsys: Any) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "mygame.py").write_text("# someone else's plug-in\n")
    assert main(["pysolfc", "install", "--dir", str(plugins), "--game", "good_measure"]) == 0
    assert "for Good Measure;" in capsys.readouterr().out
    (plugins / "__pycache__").mkdir()
    (plugins / "__pycache__" / "bakersdozen_solver.cpython-311.pyc").write_bytes(b"")
    (plugins / "__pycache__" / "mygame.cpython-311.pyc").write_bytes(b"")
    assert main(["pysolfc", "uninstall", "--dir", str(plugins)]) == 0
    assert capsys.readouterr().out == f"removed {plugins / PLUGIN_NAME}\n"
    assert sorted(os.listdir(plugins)) == ["__pycache__", "mygame.py"]
    assert os.listdir(plugins / "__pycache__") == ["mygame.cpython-311.pyc"]
    assert main(["pysolfc", "uninstall", "--dir", str(plugins)]) == 0
    assert capsys.readouterr().out.startswith("nothing to remove: ")
    assert uninstall_plugin(plugins) is None


def test_a_file_we_did_not_write_is_left_alone(tmp_path: Path, capsys: Any) -> None:
    foreign = tmp_path / PLUGIN_NAME
    foreign.write_text("print('mine')\n")
    for action in ("install", "uninstall"):
        assert main(["pysolfc", action, "--dir", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"bakersdozen pysolfc: error: {foreign} ") and "not" in err
        assert err.count("\n") == 1
    assert foreign.read_text() == "print('mine')\n"


def test_errors_are_one_line(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    assert main(["pysolfc", "install", "--dir", str(tmp_path), "--game", "klondike"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakersdozen pysolfc: error: unknown game 'klondike'")
    assert err.count("\n") == 1 and not (tmp_path / PLUGIN_NAME).exists()
    monkeypatch.chdir(tmp_path)
    for action in ("install", "uninstall"):  # not the current folder
        assert main(["pysolfc", action, "--dir", ""]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"bakersdozen pysolfc: error: argument --dir: the folder name "
                              f"is empty") and err.count("\n") == 1
        assert not (tmp_path / PLUGIN_NAME).exists()
    assert main(["pysolfc", "reinstall"]) == 2
    assert "invalid choice: 'reinstall'" in capsys.readouterr().err
    assert main(["pysolfc", "uninstall", "--dir", str(tmp_path), "--game", "bakers_dozen"]) == 2
    assert "--game is for install" in capsys.readouterr().err
    monkeypatch.setenv("HOME", str(tmp_path / "missing"))
    if os.name != "nt":
        assert main(["pysolfc", "install"]) == 2
        assert "is not a folder: give PySolFC's plug-in folder with --dir" in \
            capsys.readouterr().err


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0,
                    reason="permissions do not bind on Windows or for root")
def test_a_folder_that_cannot_be_written(tmp_path: Path, capsys: Any) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["pysolfc", "install", "--dir", str(locked / "plugins")]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"bakersdozen pysolfc: error: cannot write the plug-in into "
                              f"{locked / 'plugins'}")
        assert "Permission denied" in err
    finally:
        locked.chmod(0o700)


def test_a_folder_that_is_a_file(tmp_path: Path, capsys: Any) -> None:
    # The "unreadable folder" case that binds for root too: the path is a file.
    blocker = tmp_path / "plugins"
    blocker.write_text("")
    assert main(["pysolfc", "install", "--dir", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bakersdozen pysolfc: error: cannot write the plug-in into {blocker}")
    assert main(["pysolfc", "uninstall", "--dir", str(blocker / "sub")]) == 0
