"""Run the plug-in in a real PySolFC: how docs/pysolfc.md's figures and screenshots were made.

Three commands (see docs/pysolfc.md, "Trying it in a real PySolFC")::

    python docs/pysolfc_session.py cardset FOLDER
    python docs/pysolfc_session.py drive "GAME TITLE" DEAL OUTDIR [MAX_ITERS]
    python docs/pysolfc_session.py import "GAME TITLE" PRESET DEAL OUT.json

``cardset`` draws a plain 52-card cardset with Pillow into FOLDER (a
``cardset-*`` folder under ``~/.PySolFC/cardsets``): PySolFC's sources
carry no cardset, and the cardsets package is not in Debian 12.

``drive`` is run from a PySolFC source folder, with a Python that has
PySolFC's requirements, under an X server (Xvfb), with the plug-in
installed (``bakersdozen pysolfc install``).  It starts PySolFC on deal
DEAL of the game, waits for the deal, opens the Solver dialog through the
menu bar's own handler, presses *Start* (``mDone(0)``), writes the
screenshot ``dialog.png``, replays the dialog's hint list with
:func:`bakersdozen.check` on the position read from PySolFC's stacks,
presses *Play* (``mDone(1)``: PySolFC's demo at level 3), waits for the
game to be won and writes ``won.png`` and ``result.json``.  ``import``
tries PySolFC's *Import starting layout* (:func:`import_layout`).  Two changes
to PySolFC's start-up, both outside the solver: the generated cardset is
chosen for the French games (the defaults name cardsets not installed),
and the start-up warning about the other missing cardset types, a modal
dialog, is recorded instead of shown.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def make_cardset(folder: str) -> None:
    """A plain French cardset (PNG, 73 x 97 pixels) in *folder*."""
    from PIL import Image, ImageDraw, ImageFont

    os.makedirs(folder, exist_ok=True)
    width, height = 73, 97
    font = ImageFont.load_default(size=22)
    try:
        symbol_font = ImageFont.truetype("DejaVuSans.ttf", 30)
        small_symbol = ImageFont.truetype("DejaVuSans.ttf", 16)
    except OSError:
        symbol_font = small_symbol = font
    suits = {"c": ("\u2663", "black"), "s": ("\u2660", "black"),
             "h": ("\u2665", "#c00000"), "d": ("\u2666", "#c00000")}
    for suit, (symbol, colour) in suits.items():
        for rank in range(13):
            image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
            draw = ImageDraw.Draw(image)
            draw.rounded_rectangle((0, 0, width - 1, height - 1), 6, fill="white",
                                   outline="#333333")
            label = "A23456789TJQK"[rank]
            draw.text((5, 3), label, font=font, fill=colour)
            draw.text((7 + draw.textlength(label, font=font), 4), symbol, font=small_symbol,
                      fill=colour)
            draw.text((width // 2, height // 2 + 10), symbol, font=symbol_font, fill=colour,
                      anchor="mm")
            image.save(os.path.join(folder, "%02d%s.png" % (rank + 1, suit)))
    back = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(back)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), 6, fill="#2050a0", outline="#333333")
    for x in range(6, width - 6, 8):
        draw.line((x, 6, x, height - 7), fill="#4070c0")
    back.save(os.path.join(folder, "back01.png"))
    Image.new("RGBA", (width, height), (56, 150, 248, 110)).save(os.path.join(folder, "shade.png"))
    with open(os.path.join(folder, "config.txt"), "w") as handle:
        handle.write("PySolFC solitaire cardset;4;.png;1;52;1\nplain;Plain\n"
                     f"{width} {height} 8\n16 20 7 7\nback01.png\nback01.png\n")


def drive(title: str, deal: int, out: str, max_iters: int | None) -> None:
    """Run PySolFC on deal *deal* of *title* and solve it from the Solver dialog."""
    os.makedirs(out, exist_ok=True)
    sys.path.insert(0, os.getcwd())
    from pysollib.init import init  # type: ignore[import-not-found]

    init()
    result: dict[str, Any] = {"game": title, "deal": deal}

    def shot(name: str) -> None:
        from PIL import ImageGrab

        ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).save(os.path.join(out, name))

    def finish(code: int) -> None:
        with open(os.path.join(out, "result.json"), "w") as handle:
            json.dump(result, handle, indent=1)
        sys.stdout.flush()
        os._exit(code)

    def failed() -> None:
        import traceback

        result["error"] = traceback.format_exc()
        finish(1)

    def dialog() -> Any:
        from pysollib import settings  # type: ignore[import-not-found]

        if settings.USE_TILE:
            import pysollib.tile.solverdialog as module  # type: ignore[import-not-found]
        else:
            import pysollib.tk.solverdialog as module  # type: ignore[import-not-found]
        return module.solver_dialog

    def open_dialog(app: Any) -> None:
        if app.game is None or app.game.s.talon.cards:  # still dealing
            app.top.after(500, lambda: open_dialog(app))
            return
        try:
            game = app.game
            result["title"] = app.getGameTitleName(game.id)
            result["game_number"] = game.getGameNumber(format=0)
            result["solver_class"] = repr(game.Solver_Class)
            result["board"] = game.Solver_Class(game, app.menubar).calcBoardString()
            app.opt.animations = 0
            app.opt.timeouts["demo"] = 0.02
            app.top.wm_geometry("%dx%d+0+0" % (app.top.winfo_screenwidth() - 10,
                                                app.top.winfo_screenheight() - 40))
            app.top.update()
            app.menubar.mSolver()
            app.top.after(1500, lambda: start(app))
        except BaseException:  # noqa: BLE001 (written to result.json)
            failed()

    def start(app: Any) -> None:
        try:
            from bakersdozen import FOUNDATION, Deal, Move, check
            from bakersdozen.pysolfc import read_position

            d = dialog()
            d.top.wm_geometry("-20-50")
            app.top.update()
            if max_iters is not None:
                d.max_iters_var.set(max_iters)
            result["max_iters"] = d._getMaxIters()
            began = time.perf_counter()
            d.mDone(0)                                   # Start
            result["start_seconds"] = round(time.perf_counter() - began, 3)
            result["result_text"] = d.result_label["text"]
            result["iter"] = str(d.iter_label["text"])
            result["depth"] = str(d.depth_label["text"])
            solver = app.game.solver
            result["solver_state"] = solver.solver_state
            result["play_button"] = str(d.play_button.cget("state"))
            app.top.update()
            shot("dialog.png")
            if len(solver.hints) == 1:
                finish(0)
            # The hint list, replayed by check() on the position PySolFC dealt.
            rules = app.game.Solver_Class.rules
            position = read_position(app.game, rules)
            result["same_as_Deal_pysol"] = position == Deal.pysol(deal, rules)
            rows = app.game.s.rows
            columns = [list(column) for column in position.columns]
            moves = []
            for ncards, source, target in solver.hints[:-1]:
                s = rows.index(source)
                card, unit = columns[s][-ncards], columns[s][-ncards:]
                del columns[s][-ncards:]
                if target is None:
                    moves.append(Move(card, s + 1, FOUNDATION))
                else:
                    columns[rows.index(target)].extend(unit)
                    moves.append(Move(card, s + 1, rows.index(target) + 1))
            result["moves"] = [str(move) for move in moves]
            result["check_won"] = check(position, moves).won
            d.mDone(1)                                   # Play
            app.top.after(500, lambda: wait(app, time.perf_counter()))
        except BaseException:  # noqa: BLE001
            failed()

    def wait(app: Any, began: float) -> None:
        game = app.game
        if game.isGameWon() or time.perf_counter() - began > 240:
            result["demo_won"] = bool(game.isGameWon())
            result["demo_moves"] = game.moves.index
            result["foundation_cards"] = sum(len(f.cards) for f in game.s.foundations)
            def last() -> None:
                shot("won.png")
                finish(0)

            app.top.after(1500, last)
            return
        app.top.after(300, lambda: wait(app, began))

    _run_pysolfc(title, deal, open_dialog, result)
    finish(2)


def _run_pysolfc(title: str, deal: int, ready: Any, result: dict[str, Any]) -> None:
    """PySolFC's main() on deal *deal* of *title*; ``ready(app)`` runs 4 s into its loop."""
    import pysollib.app  # type: ignore[import-not-found]

    original_mainloop = pysollib.app.Application.mainloop
    original_options = pysollib.app.Application.loadOptions

    def mainloop(self: Any) -> Any:
        self.top.after(4000, lambda: ready(self))
        return original_mainloop(self)

    def load_options(self: Any) -> None:
        original_options(self)
        from pysollib.resource import CSI  # type: ignore[import-not-found]

        self.opt.cardset[0] = {0: ("Plain", "")}
        self.opt.cardset[CSI.TYPE_FRENCH] = {0: ("Plain", ""), 1: ("Plain", "")}
        self.opt.splashscreen = False

    class StartupWarning:
        def __init__(self, *args: Any, **kw: Any) -> None:
            result.setdefault("startup_warnings", []).append(kw.get("title"))
            self.status = 0

    pysollib.app.Application.mainloop = mainloop
    pysollib.app.Application.loadOptions = load_options
    import pysollib.main  # type: ignore[import-not-found]

    pysollib.main.MfxMessageDialog = StartupWarning
    pysollib.main.main(["pysol.py", "--game=" + title, f"--deal={deal}", "--nosound"])


def import_layout(title: str, preset: str, deal: int, out: str) -> None:
    """PySolFC's *Import starting layout* of ``Deal.pysol(deal, preset)``'s board text, then a solve.

    Started on deal 24, PySolFC imports the board file (``PYSOL_DEBUG_IMPORT``
    names it instead of a file dialog) through the wrapper's ``importFile``;
    ``out`` receives whether the table then equals the imported deal and
    what the wrapper finds from it.
    """
    sys.path.insert(0, os.getcwd())
    from pysollib.init import init  # type: ignore[import-not-found]

    init()
    result: dict[str, Any] = {"game": title, "imported": deal}

    def finish(code: int) -> None:
        with open(out, "w") as handle:
            json.dump(result, handle, indent=1)
        os._exit(code)

    def ready(app: Any) -> None:
        if app.game is None or app.game.s.talon.cards:
            app.top.after(500, lambda: ready(app))
            return
        try:
            from bakersdozen import Deal

            board = os.path.abspath(out) + ".board"
            with open(board, "w") as handle:
                handle.write(Deal.pysol(deal, preset).to_text())
            os.environ["PYSOL_DEBUG_IMPORT"] = board
            app.menubar.mImportStartingLayout()
            app.top.after(2000, lambda: solve(app))
        except BaseException:  # noqa: BLE001
            import traceback

            result["error"] = traceback.format_exc()
            finish(1)

    def solve(app: Any) -> None:
        try:
            from bakersdozen import Deal
            from bakersdozen.pysolfc import read_position

            result["table_equals_import"] = (
                read_position(app.game, preset) == Deal.pysol(deal, preset))
            solver = app.game.Solver_Class(app.game, None)
            solver.config(max_iters=100000)
            solver.computeHints()
            result["solver_state"] = solver.solver_state
            result["moves"] = len(solver.hints) - 1
            finish(0)
        except BaseException:  # noqa: BLE001
            import traceback

            result["error"] = traceback.format_exc()
            finish(1)

    _run_pysolfc(title, 24, ready, result)
    finish(2)

if __name__ == "__main__":
    if sys.argv[1:2] == ["cardset"] and len(sys.argv) == 3:
        make_cardset(sys.argv[2])
    elif sys.argv[1:2] == ["import"] and len(sys.argv) == 6:
        import_layout(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1:2] == ["drive"] and len(sys.argv) in (5, 6):
        drive(sys.argv[2], int(sys.argv[3]), sys.argv[4],
              int(sys.argv[5]) if len(sys.argv) == 6 else None)
    else:
        sys.exit(__doc__)
