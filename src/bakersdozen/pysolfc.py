"""This package's solver inside PySolFC: the Solver dialog's wrapper and its plug-in.

PySolFC (https://github.com/shlomif/PySolFC) opens a *Solver* dialog from
its Assist menu.  For each game the dialog builds a solver object from the
game class's ``Solver_Class`` attribute and talks to it through a handful
of calls (PySolFC's ``pysollib/ui/tktile/solverdialog.py`` and
``pysollib/hint.py``, read at commit 7a3d146a)::

    solver = game.Solver_Class(game, dialog)
    solver.config(preset=..., max_iters=..., progress=..., iters_step=...)
    solver.computeHints()
    len(solver.hints) - 1          # moves found; solver.hints ends with None
    solver.solver_state            # "unsolved" -> "I could not solve this game."
                                   # anything else with no moves -> "Intractable"
    solver.getHints(taken_hint)    # the demo ("Play"), one move per call

For Baker's Dozen, Castles in Spain, Portuguese Solitaire, Spanish
Patience II and Good Measure PySolFC's ``Solver_Class`` runs Freecell
Solver; Spanish Patience has none.  :class:`PySolFCSolver` takes its place:
it reads the position from the game's stacks, solves it with
:func:`bakersdozen.solve` in the same process and turns the winning line
into the moves the dialog and its demo play.  :func:`install_solvers` sets
it on the game classes from inside PySolFC; :func:`install_plugin` writes
the small file that PySolFC runs at start-up to call it (PySolFC imports
every ``.py`` file of its plug-in folder, ``~/.PySolFC/plugins``).

Nothing here imports PySolFC at module level: the game object is read by
duck typing (``game.s.rows``, ``game.s.foundations``, each stack's
``cards`` bottom → top, each card's ``rank`` 0..12, ``suit`` in PySol's
order clubs, spades, hearts, diamonds, and ``face_up``), so the module is
imported and tested without PySolFC.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from .cards import Card, Suit
from .errors import BakersDozenError
from .model import FOUNDATION, Deal, Move
from .rules import PRESETS, Rules, find_rules

__all__ = [
    "PySolFCError",
    "PYSOL_CLASSES",
    "PLUGIN_NAME",
    "PySolFCSolver",
    "SolverHints",
    "read_position",
    "line_to_hints",
    "install_solvers",
    "plugin_dir",
    "plugin_source",
    "install_plugin",
    "uninstall_plugin",
]


class PySolFCError(BakersDozenError, ValueError):
    """A PySolFC game, position or plug-in folder this module cannot use."""


#: The PySolFC class (in ``pysollib/games/bakersdozen.py``) of each preset.
PYSOL_CLASSES: Final[Mapping[str, str]] = {
    "bakers_dozen": "BakersDozen",
    "castles_in_spain": "CastlesInSpain",
    "good_measure": "GoodMeasure",
    "portuguese_solitaire": "PortugueseSolitaire",
    "spanish_patience": "SpanishPatience",
    "spanish_patience_ii": "SpanishPatienceII",
}

#: The file name of the plug-in in PySolFC's plug-in folder.
PLUGIN_NAME: Final = "bakersdozen_solver.py"
# The plug-in's first line: uninstall removes a file only if it starts so.
_MARKER: Final = "# bakersdozen PySolFC plug-in"

# PySol numbers suits clubs 0, spades 1, hearts 2, diamonds 3
# (``pysollib/acard.py``: ``color = suit // 2``); ours are C, D, H, S.
_FROM_PYSOL_SUIT: Final = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
# The hint tuple's score: PySolFC's own solver hints use this value.
_SCORE: Final = 999999


def _stack_name(kind: str, index: int) -> str:
    return f"{kind} {index + 1}"


def _card(card: Any, where: str) -> Card:
    """One PySolFC card (``rank`` 0..12, ``suit`` in PySol's order) as a :class:`Card`."""
    rank, suit = getattr(card, "rank", None), getattr(card, "suit", None)
    if type(rank) is not int or not 0 <= rank <= 12 or type(suit) is not int or not 0 <= suit <= 3:
        raise PySolFCError(
            f"{where}: a card with rank {rank!r} and suit {suit!r}; a PySolFC card of the "
            "French pack has rank 0..12 and suit 0..3"
        )
    return Card(rank + 1, _FROM_PYSOL_SUIT[suit])


def _stacks(game: Any, name: str) -> Sequence[Any]:
    try:
        stacks = getattr(game.s, name)
    except AttributeError:
        raise PySolFCError(f"the game object has no s.{name}: not a PySolFC game") from None
    return list(stacks) if stacks is not None else []


def read_position(game: Any, rules: Rules | str) -> Deal:
    """The position on a PySolFC game's table, as a :class:`~bakersdozen.Deal`.

    Parameters
    ----------
    game : pysollib.game.Game
        PySolFC's game object, read by duck typing: ``game.s.rows`` (the
        columns, in PySolFC's order: column 1 is ``rows[0]``),
        ``game.s.foundations`` (four piles), ``game.s.talon`` and
        ``game.s.reserves`` (must hold no cards); each stack's ``cards``
        list bottom → top; each card's ``rank`` (0 Ace .. 12 King) and
        ``suit`` (PySol's order: 0 clubs, 1 spades, 2 hearts, 3 diamonds).
        Face-down cards are read like the others: the position is solved
        open.
    rules : Rules or str
        The game (a preset or its name).

    Returns
    -------
    Deal
        The columns as they lie (PySolFC has already moved its Kings; no
        Kings rule is applied again) and the foundation heights, pile *i*
        being the one whose Ace is of :class:`~bakersdozen.Suit` *i*.

    Raises
    ------
    PySolFCError
        If the table is not one of the game: another number of columns,
        not four foundations, cards left in the talon or a reserve, a card
        outside the French pack, a foundation not begun by an Ace; or if
        the cards are not a position of the game (the message of
        :class:`~bakersdozen.Deal`'s check follows).
    RulesError
        If *rules* names no preset.
    """
    rules = find_rules(rules)
    rows = _stacks(game, "rows")
    foundations = _stacks(game, "foundations")
    if len(rows) != rules.columns:
        raise PySolFCError(
            f"the game has {len(rows)} columns (s.rows); {rules.title} has {rules.columns}"
        )
    if len(foundations) != 4:
        raise PySolFCError(f"the game has {len(foundations)} foundations; {rules.title} has 4")
    talon = getattr(game.s, "talon", None)
    if talon is not None and list(talon.cards):
        raise PySolFCError(
            f"the talon still holds {len(talon.cards)} cards: the deal is not finished"
        )
    for index, reserve in enumerate(_stacks(game, "reserves") if hasattr(game.s, "reserves") else []):
        if list(reserve.cards):
            raise PySolFCError(f"{_stack_name('reserve', index)} holds cards; {rules.title} has none")
    columns = tuple(
        tuple(_card(c, f"{_stack_name('column', i)}, card {k + 1}") for k, c in enumerate(row.cards))
        for i, row in enumerate(rows)
    )
    heights = [0, 0, 0, 0]
    for index, pile in enumerate(foundations):
        cards = [_card(c, f"{_stack_name('foundation', index)}, card {k + 1}")
                 for k, c in enumerate(pile.cards)]
        if not cards:
            continue
        if cards[0].rank != 1:
            raise PySolFCError(
                f"{_stack_name('foundation', index)} begins with {cards[0]}, not an Ace"
            )
        suit = cards[0].suit
        if heights[suit]:
            raise PySolFCError(f"two foundations begin with the Ace of {suit.name.lower()}")
        heights[suit] = len(cards)
    try:
        return Deal(columns, (heights[0], heights[1], heights[2], heights[3]), rules=rules)
    except ValueError as error:
        raise PySolFCError(f"not a position of {rules.title}: {error}") from None


def line_to_hints(
    deal: Deal, moves: Iterable[Move], game: Any
) -> list[tuple[int, Any, Any]]:
    """A winning line as PySolFC's solver hints: ``(ncards, source, target)`` per move.

    Parameters
    ----------
    deal : Deal
        The position the line starts from (:func:`read_position` of *game*).
    moves : iterable of Move
        The line, legal from *deal* (a :class:`~bakersdozen.Solution`'s).
    game : pysollib.game.Game
        The game whose stacks the hints name.

    Returns
    -------
    list of (int, stack, stack or None)
        For each move, the number of cards it carries (the move's card and
        those above it in its column: more than one only where sequences
        move), the source row stack and the target row stack, or None for
        a foundation (the foundation that accepts the card is looked up
        when the move is played, as PySolFC's own solver hints do).

    Raises
    ------
    PySolFCError
        If a move's card is not in its source column (a line that does not
        belong to *deal*).
    """
    rows = _stacks(game, "rows")
    columns = [list(column) for column in deal.columns]
    hints: list[tuple[int, Any, Any]] = []
    for number, move in enumerate(moves, 1):
        source = columns[move.source - 1]
        try:
            at = len(source) - 1 - source[::-1].index(move.card)
        except ValueError:
            raise PySolFCError(
                f"move {number} ({move}): {move.card} is not in column {move.source}"
            ) from None
        unit = source[at:]
        del source[at:]
        if move.target == FOUNDATION:
            hints.append((len(unit), rows[move.source - 1], None))
        else:
            columns[move.target - 1].extend(unit)
            hints.append((len(unit), rows[move.source - 1], rows[move.target - 1]))
    return hints


class SolverHints:
    """One solve of a PySolFC position, in the shape of PySolFC's solver hint classes.

    Made by :class:`PySolFCSolver` (``game.Solver_Class(game, dialog)``);
    the Solver dialog then calls :meth:`config`, :meth:`computeHints` and
    reads ``hints`` and ``solver_state``; its *Play* button runs
    PySolFC's demo, which calls :meth:`getHints` once per move.

    Attributes
    ----------
    game : pysollib.game.Game
    dialog : object
        The Solver dialog (its ``setText(iter=..., depth=..., states=...)``
        shows the figures), or PySolFC's menu bar when the object is made
        only to export or import a layout.
    rules : Rules
    options : dict
        ``max_iters`` (the dialog's *Max iterations*: the solve's
        ``max_nodes``), and ``preset``, ``progress``, ``iters_step``, kept
        but unused (Freecell Solver's presets and progress output have no
        counterpart here).
    hints : list
        After :meth:`computeHints`: one ``(ncards, source, target)`` per
        move of the winning line (:func:`line_to_hints`), then ``None``;
        ``[None]`` when no line was found.
    solver_state : str
        ``"not_started"``; after :meth:`computeHints` ``"solved"``,
        ``"unsolved"`` (proven: no line wins from the position) or
        ``"intractable"`` (the node limit stopped the search first).
    solution : Solution or None
        The :func:`bakersdozen.solve` result.
    """

    def __init__(self, game: Any, dialog: Any, rules: Rules) -> None:
        self.game = game
        self.dialog = dialog
        self.rules = rules
        self.options: dict[str, Any] = {
            "iters_step": 100, "max_iters": 100000, "progress": False, "preset": None,
        }
        self.hints: list[tuple[int, Any, Any] | None] = []
        self.hints_index = 0
        self.solver_state = "not_started"
        self.solution: Any = None

    def config(self, **options: Any) -> None:
        """Take the dialog's options (``max_iters``, ``preset``, ``progress``, ``iters_step``)."""
        self.options.update(options)

    def _max_nodes(self) -> int:
        value = self.options.get("max_iters")
        try:
            nodes = int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise PySolFCError(f"max_iters must be a whole number, not {value!r}") from None
        return max(1, min(nodes, 2**64 - 1))

    def _show(self, **figures: Any) -> None:
        set_text = getattr(self.dialog, "setText", None)
        if set_text is not None:
            set_text(**figures)

    def computeHints(self) -> None:  # noqa: N802 (PySolFC's name)
        """Solve the game's position; fill ``hints`` and ``solver_state``.

        The solve runs in this process with ``max_nodes`` = the dialog's
        *Max iterations* and no time limit, so its verdict repeats for a
        position and a limit.  Its figures go to the dialog: *Iteration*
        the positions the search generated, *Depth* the moves of the line
        found, *Stored-States* left empty.

        Raises
        ------
        PySolFCError
            If the table cannot be read (:func:`read_position`) or
            ``max_iters`` is not a whole number.
        MemoryError
            If the search's table (512 MiB at most) cannot be had.
        """
        from .solution import Verdict
        from .solver import solve

        self.hints = []
        self.hints_index = 0
        self.solution = None
        self.solver_state = "unknown"
        deal = read_position(self.game, self.rules)
        solution = solve(deal, time_limit=None, max_nodes=self._max_nodes())
        self.solution = solution
        if solution.verdict is Verdict.SOLVED:
            self.hints = list(line_to_hints(deal, solution.moves, self.game))
            self.solver_state = "solved"
        elif solution.verdict is Verdict.UNSOLVABLE:
            self.solver_state = "unsolved"
        else:
            self.solver_state = "intractable"
        self.hints.append(None)
        depth = len(solution.moves) if solution.solved else ""
        self._show(iter=solution.nodes, depth=depth, states="")

    def getHints(self, taken_hint: Any = None) -> list[tuple[Any, ...]] | None:  # noqa: N802
        """The next move of the line, as a list of one PySolFC hint, or None at its end.

        A hint is PySolFC's 7-tuple ``(score, pos, ncards, from_stack,
        to_stack, text_color, forced_move)``.  A foundation move names the
        foundation that accepts the card now (``acceptsCards``).  A move
        that uncovers a face-down card carries the flip of that card as
        its forced move, which PySolFC's demo plays next; a face-down top
        card is flipped before the move that takes it.

        Parameters
        ----------
        taken_hint : tuple or None
            The hint played last; its forced move, if any, is returned
            first.

        Returns
        -------
        list of one tuple, or None
            None when the line is played out, or when the table no longer
            lets the next move be played (a foundation move no foundation
            accepts), which ends PySolFC's demo.
        """
        if taken_hint and taken_hint[6]:
            return [taken_hint[6]]
        if self.hints_index >= len(self.hints) or self.hints[self.hints_index] is None:
            return None
        step = self.hints[self.hints_index]
        assert step is not None
        ncards, source, target = step
        if len(source.cards) < ncards:
            return None
        if not source.cards[-1].face_up:
            return [(_SCORE, 0, 1, source, source, None, None)]
        unit = source.cards[-ncards:]
        if target is None:
            target = next(
                (pile for pile in _stacks(self.game, "foundations")
                 if pile.acceptsCards(source, unit)),
                None,
            )
            if target is None:
                return None
        flip = None
        if len(source.cards) > ncards and not source.cards[-ncards - 1].face_up:
            flip = (_SCORE, 0, 1, source, source, None, None)
        self.hints_index += 1
        return [(_SCORE, 0, ncards, source, target, None, flip)]

    def calcBoardString(self) -> str:  # noqa: N802 (PySolFC's name)
        """The position as board text (PySolFC's *Export current layout*).

        Raises
        ------
        PySolFCError
            As :func:`read_position`.
        """
        return read_position(self.game, self.rules).to_text()

    def importFile(self, fh: Any, s_game: Any, caller: Any) -> None:  # noqa: N802
        """PySolFC's *Import starting layout*: handed to PySolFC's own reader.

        The board text this package writes is Freecell Solver's, which
        PySolFC's ``FreeCellSolver_Hint.importFile`` reads; this method
        calls it (and so works only inside PySolFC).
        """
        from pysollib.hint import FreeCellSolver_Hint  # type: ignore[import-not-found]

        FreeCellSolver_Hint(self.game, self.dialog).importFile(fh, s_game, caller)


class PySolFCSolver:
    """A game class's ``Solver_Class``: makes a :class:`SolverHints` for a game.

    It is an object with ``__call__``, not a function, so that PySolFC's
    ``game.Solver_Class(game, dialog)`` does not bind it as a method.

    Parameters
    ----------
    rules : Rules or str
        The preset (or its name); it must have a PySol game id.
    fallback : callable or None
        The ``Solver_Class`` the class had before.  A subclass that
        inherits this solver but is another PySolFC game (another game id,
        such as Baker's Dozen (2 Decks)) gets *fallback*'s solver instead.

    Raises
    ------
    RulesError
        If *rules* names no preset.
    PySolFCError
        If the preset is not one of PySolFC's games.
    """

    def __init__(self, rules: Rules | str, fallback: Any = None) -> None:
        self.rules = find_rules(rules)
        if self.rules.pysol_id is None or self.rules.name not in PYSOL_CLASSES:
            raise PySolFCError(f"{self.rules.name} is not a PySolFC game")
        self.fallback = fallback

    def __call__(self, game: Any, dialog: Any) -> Any:
        game_id = getattr(game, "id", None)
        if game_id != self.rules.pysol_id:
            if self.fallback is not None:
                return self.fallback(game, dialog)
            raise PySolFCError(
                f"this solver plays {self.rules.title} (PySolFC game {self.rules.pysol_id}), "
                f"not PySolFC game {game_id!r}"
            )
        return SolverHints(game, dialog, self.rules)

    def __repr__(self) -> str:
        return f"PySolFCSolver({self.rules.name!r})"


def _selected(games: Iterable[Rules | str] | None) -> list[Rules]:
    if games is None:
        return [PRESETS[name] for name in PYSOL_CLASSES]
    chosen: list[Rules] = []
    for game in games:
        rules = find_rules(game)
        if rules.name not in PYSOL_CLASSES or PRESETS.get(rules.name) != rules:
            raise PySolFCError(
                f"{rules.name} is not a PySolFC game: choose from {', '.join(PYSOL_CLASSES)}"
            )
        if rules not in chosen:
            chosen.append(rules)
    return chosen


def install_solvers(
    games: Iterable[Rules | str] | None = None,
    *,
    module: Any = None,
    game_db: Any = None,
    settings: Sequence[Any] | None = None,
) -> list[Rules]:
    """Set :class:`PySolFCSolver` as the ``Solver_Class`` of PySolFC's games (run inside PySolFC).

    What the plug-in calls at PySolFC's start-up.  For each game it sets
    the class's ``Solver_Class`` (the one it had is kept as the fallback
    for subclasses that are other games), adds the game, if registered, to
    the list of the Solver dialog's games (``GAME_DB.getGamesForSolver()``,
    made when the games were registered, before plug-ins load: Spanish
    Patience is not on it), and turns on the *Solver...* menu entry
    (``USE_FREECELL_SOLVER``, which PySolFC clears when it finds no
    Freecell Solver).  Calling it again changes nothing more.

    Parameters
    ----------
    games : iterable of Rules or str, optional
        The presets to take over; default all six.
    module, game_db, settings : optional
        PySolFC's ``pysollib.games.bakersdozen``, ``pysollib.gamedb.GAME_DB``
        and the modules holding ``USE_FREECELL_SOLVER``; imported from
        PySolFC when not given (tests pass stand-ins).

    Returns
    -------
    list of Rules
        The games set.

    Raises
    ------
    PySolFCError
        For a preset that is not a PySolFC game, or a class *module* lacks.
    ImportError
        If PySolFC is not importable and *module* or *game_db* is not given.
    """
    chosen = _selected(games)
    if module is None:
        from pysollib.games import bakersdozen as module  # type: ignore[import-not-found, no-redef]
    if game_db is None:
        from pysollib.gamedb import GAME_DB as game_db  # type: ignore[import-not-found, no-redef]
    if settings is None:
        settings = [
            sys.modules[name] for name in (
                "pysollib.settings", "pysollib.ui.tktile.menubar", "pysollib.kivy.menubar",
            ) if name in sys.modules
        ]
    solver_games = game_db.getGamesForSolver()
    for rules in chosen:
        cls = getattr(module, PYSOL_CLASSES[rules.name], None)
        if cls is None:
            raise PySolFCError(f"PySolFC has no class {PYSOL_CLASSES[rules.name]} for {rules.title}")
        previous = cls.Solver_Class
        if isinstance(previous, PySolFCSolver):
            previous = previous.fallback
        cls.Solver_Class = PySolFCSolver(rules, fallback=previous)
        # Only a registered game: the dialog sorts the titles of the list's
        # ids, and an unknown id's title is None.
        if rules.pysol_id not in solver_games and game_db.get(rules.pysol_id) is not None:
            solver_games.append(rules.pysol_id)
    for holder in settings:
        if hasattr(holder, "USE_FREECELL_SOLVER"):
            holder.USE_FREECELL_SOLVER = True
    return chosen


# ---------------------------------------------------------------------------
# The plug-in file
# ---------------------------------------------------------------------------


def plugin_dir(environ: Mapping[str, str] | None = None) -> Path:
    """PySolFC's user plug-in folder, found as PySolFC finds it.

    ``$HOME/.PySolFC/plugins`` (``%APPDATA%\\PySolFC\\plugins`` on Windows):
    PySolFC's ``getprefdir`` in ``pysollib/mfxutil.py`` and the
    ``plugins`` entry of ``Application.dn`` in ``pysollib/app.py``.

    Raises
    ------
    PySolFCError
        If ``HOME`` (``APPDATA``) is unset or not a folder: PySolFC would
        then use its working folder, which cannot be known here.
    """
    env = os.environ if environ is None else environ
    if os.name == "nt":
        base = env.get("APPDATA", "").strip()
        if not base or not os.path.isdir(base):
            raise PySolFCError("APPDATA is not set to a folder: give the plug-in folder with --dir")
        return Path(base, "PySolFC", "plugins")
    home = env.get("HOME", "").strip()
    if not home or not os.path.isdir(home):
        raise PySolFCError(
            f"HOME ({home!r}) is not a folder: give PySolFC's plug-in folder with --dir"
        )
    return Path(home, ".PySolFC", "plugins")


def plugin_source(games: Iterable[Rules | str] | None = None, package_path: str | None = None) -> str:
    """The text of the plug-in file.

    The plug-in imports this package (adding *package_path* at the end of
    ``sys.path`` if PySolFC's Python does not find it) and calls
    :func:`install_solvers`; if the import fails, it says so on standard
    error and leaves PySolFC as it was.

    Parameters
    ----------
    games : iterable of Rules or str, optional
        The presets the plug-in takes over; default all six.
    package_path : str, optional
        The folder that holds the ``bakersdozen`` package; default the one
        this module was imported from.

    Raises
    ------
    PySolFCError
        For a preset that is not a PySolFC game.
    """
    names = [rules.name for rules in _selected(games)]
    if package_path is None:
        package_path = str(Path(__file__).resolve().parent.parent)
    from ._version import __version__

    return f'''{_MARKER} (bakersdozen {__version__}); `bakersdozen pysolfc uninstall` removes it.
"""Solve {", ".join(PRESETS[n].title for n in names)} with bakersdozen.

PySolFC runs this file at start-up (it imports every .py file of its
plug-in folder).  It sets those games' Solver_Class to bakersdozen's
solver, which runs in this process; see bakersdozen's docs/pysolfc.md.
"""

import sys

GAMES = {names!r}
PACKAGE_PATH = {package_path!r}


def _install():
    try:
        import bakersdozen.pysolfc
    except ImportError:
        if PACKAGE_PATH not in sys.path:
            sys.path.append(PACKAGE_PATH)
        try:
            import bakersdozen.pysolfc
        except ImportError as error:
            if sys.stderr is None:  # pythonw, or standard error closed
                return
            print("bakersdozen plug-in: cannot import bakersdozen (%s); "
                  "PySolFC keeps its own solvers" % error, file=sys.stderr)
            return
    bakersdozen.pysolfc.install_solvers(GAMES)


_install()
'''


def _ours(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline().startswith(_MARKER)
    except OSError as error:
        raise PySolFCError(f"cannot read {path}: {error.strerror or error}") from None


def install_plugin(
    directory: str | os.PathLike[str] | None = None,
    games: Iterable[Rules | str] | None = None,
) -> Path:
    """Write the plug-in into PySolFC's plug-in folder (made if missing).

    Writing it again replaces it (with the same text, the same file).

    Parameters
    ----------
    directory : path-like, optional
        The plug-in folder; default :func:`plugin_dir`.
    games : iterable of Rules or str, optional
        The presets the plug-in takes over; default all six.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    PySolFCError
        If the folder cannot be found, made or written, if a file of the
        plug-in's name that this package did not write is in the way, or
        for a preset that is not a PySolFC game.
    """
    folder = Path(directory) if directory is not None else plugin_dir()
    text = plugin_source(games)
    target = folder / PLUGIN_NAME
    if target.exists() and not (target.is_file() and _ours(target)):
        raise PySolFCError(f"{target} exists and was not written by bakersdozen; not replaced")
    temporary = folder / (PLUGIN_NAME + ".tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, target)
    except OSError as error:
        try:
            temporary.unlink()
        except OSError:
            pass
        where = error.filename or folder
        raise PySolFCError(
            f"cannot write the plug-in into {folder}: {where}: {error.strerror or error}"
        ) from None
    return target


def uninstall_plugin(directory: str | os.PathLike[str] | None = None) -> Path | None:
    """Remove the plug-in from PySolFC's plug-in folder; nothing else is touched.

    Parameters
    ----------
    directory : path-like, optional
        The plug-in folder; default :func:`plugin_dir`.

    Returns
    -------
    Path or None
        The file removed, or None if there was none.

    Raises
    ------
    PySolFCError
        If the folder cannot be found, if the file of the plug-in's name was
        not written by this package (it is left alone), or if it cannot be
        removed.
    """
    folder = Path(directory) if directory is not None else plugin_dir()
    target = folder / PLUGIN_NAME
    if not target.exists():
        return None
    if not (target.is_file() and _ours(target)):
        raise PySolFCError(f"{target} was not written by bakersdozen; not removed")
    try:
        target.unlink()
    except OSError as error:
        raise PySolFCError(f"cannot remove {target}: {error.strerror or error}") from None
    # The byte code Python cached when PySolFC imported the plug-in.
    for cached in (folder / "__pycache__").glob(Path(PLUGIN_NAME).stem + ".*.pyc"):
        try:
            cached.unlink()
        except OSError:
            pass
    return target
