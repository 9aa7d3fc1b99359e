"""The difficulty measure, the player without a solver, ``bakersdozen rate`` and
``results/difficulty.py``: against brute force, the checker and hand-made cases."""

from __future__ import annotations

import importlib.util
import gzip
import json
import math
import os
import subprocess
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bakersdozen
from bakersdozen import ArgumentError, Deal, Verdict, check, legal_moves, solve
from bakersdozen.cli import main
from bakersdozen.difficulty import (
    GAME_LINE_BITS, GRADES, LINE_BITS, PLAYER_ROLLOUTS, Rating, Step, difficulty_of, evaluate,
    grade_of, grade_table, line_bits, load_cuts, play_greedy, play_rollouts, player_playout_moves, player_rollouts, rate,
    shipped_cuts,
)
from bakersdozen.rules import PRESETS
from brute import brute_force_solvable, shortest_win_length
from conftest import initial_deals
from reference import pack, stable_deal

ROOT = Path(__file__).resolve().parent.parent
MEMORY_MB = 64


def _batch():
    """results/difficulty.py, imported as a module."""
    spec = importlib.util.spec_from_file_location("difficulty_batch", ROOT / "results" / "difficulty.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _winnable_reduced(seed: int, ranks: int = 5) -> Deal:
    """The first winnable reduced-pack deal from *seed* on (brute force decides)."""
    rng = random.Random(seed)
    while True:
        cards = pack(ranks)
        rng.shuffle(cards)
        deal = stable_deal(cards, ranks)
        if brute_force_solvable(deal):
            return deal


def _assert_against_brute_force(deal: Deal, rating: Rating) -> None:
    """Every move the rating calls losing is unwinnable by brute force, and vice versa."""
    assert rating.verdict is Verdict.SOLVED
    assert check(deal, rating.line).won
    assert rating.unknown == 0
    position = deal
    assert len(rating.steps) == len(rating.line) == rating.positions
    for step, played in zip(rating.steps, rating.line):
        options = legal_moves(position)
        assert step.legal == len(options)
        truly_losing = {
            move for move in options if not brute_force_solvable(check(position, [move]).position)
        }
        assert set(step.losing) == truly_losing
        assert played not in truly_losing
        position = check(position, [played]).position


@settings(max_examples=12, deadline=None)
@given(initial_deals(st.integers(3, 5)))
def test_losing_moves_agree_with_brute_force(deal: Deal) -> None:
    rating = rate(deal, memory_mb=MEMORY_MB)
    if not brute_force_solvable(deal):
        assert rating.verdict is Verdict.UNSOLVABLE and rating.score is None
        return
    _assert_against_brute_force(deal, rating)
    if rating.line_kind == "shortest":
        assert rating.positions == shortest_win_length(deal)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_winnable_reduced_deals_with_losing_moves(seed: int) -> None:
    deal = _winnable_reduced(seed, ranks=6)
    rating = rate(deal, memory_mb=MEMORY_MB)
    _assert_against_brute_force(deal, rating)


def test_the_numbers_follow_from_the_steps() -> None:
    losing = narrow = 0
    for seed in range(8):
        deal = _winnable_reduced(100 + seed)
        rating = rate(deal, memory_mb=MEMORY_MB)
        steps = rating.steps
        assert rating.moves == sum(s.legal for s in steps)
        assert rating.losing == sum(len(s.losing) for s in steps)
        assert rating.choices == sum(1 for s in steps if s.legal >= 2)
        assert rating.narrow == sum(1 for s in steps if s.legal >= 2 and s.legal - len(s.losing) == 1)
        expected = sum(math.log2(s.legal / (s.legal - len(s.losing))) for s in steps)
        assert rating.score == pytest.approx(expected, abs=1e-6)
        assert rating.losing_share == pytest.approx(rating.losing / rating.moves, abs=1e-6)
        losing += rating.losing
        narrow += rating.narrow
    assert losing > 0 and narrow > 0  # the deals exercise the counts


def test_a_full_deal_with_losing_moves_along_its_line() -> None:
    deal = Deal.pysol(2)
    rating = rate(deal, memory_mb=MEMORY_MB)
    assert rating.verdict is Verdict.SOLVED and check(deal, rating.line).won
    assert rating.losing > 0 and rating.score > 0
    position = deal
    for step, played in zip(rating.steps, rating.line):
        for move in step.losing:  # each proven lost by another search (another move order)
            after = check(position, [move]).position
            again = solve(after, time_limit=None, max_nodes=2_000_000, seed=777, memory_mb=MEMORY_MB)
            assert again.verdict is Verdict.UNSOLVABLE
        position = check(position, [played]).position


@pytest.mark.parametrize("game", sorted(PRESETS))
def test_moves_made_on_one_engine_position_are_judged_as_on_the_deals_after_them(game: str) -> None:
    # rate() makes and takes back each other move on one engine position; the
    # verdicts and counts must be those of the Deals check() builds after them
    from bakersdozen.solver import _decide, _verdicts_after, deadlock

    for number in range(3, 20):  # the first winnable deal from 3 on
        deal = Deal.pysol(number, game=game)
        line = solve(deal, max_nodes=2_000_000, memory_mb=MEMORY_MB).moves
        if line:
            break
    assert line
    position, judged = deal, 0
    for played in line[:25]:
        count, others = _verdicts_after(position, played, 2_000, MEMORY_MB)
        options = legal_moves(position)
        assert count == len(options)
        assert [move for move, _v, _n in others] == [m for m in options if m != played]
        for move, verdict, searched in others:
            after = check(position, [move]).position
            if after.is_won:
                expected = (Verdict.SOLVED, 0)
            elif deadlock(after):
                expected = (Verdict.UNSOLVABLE, 0)
            else:
                expected = _decide(after, 2_000, MEMORY_MB)
            assert (verdict, searched) == expected, (str(move), str(position))
            judged += 1
        position = check(position, [played]).position
    assert judged > 20


def test_rating_is_deterministic() -> None:
    deal = Deal.pysol(2)
    first = rate(deal, memory_mb=MEMORY_MB)
    second = rate(deal, memory_mb=MEMORY_MB)
    assert first == second and first.to_json() == second.to_json()
    assert bakersdozen.rate is rate and bakersdozen.Rating is Rating


def test_unsolvable_and_unknown_deals_have_no_score() -> None:
    lost = rate(Deal.pysol(64), memory_mb=MEMORY_MB)
    assert lost.verdict is Verdict.UNSOLVABLE and lost.score is None and lost.line == ()
    assert str(lost).startswith("unsolvable")
    stopped = rate(Deal.pysol(417), line_nodes=1000, memory_mb=MEMORY_MB)
    assert stopped.verdict is Verdict.UNKNOWN and stopped.score is None and stopped.grade is None
    assert str(stopped).startswith("unknown: not decided within 1000 positions")


def test_moves_left_open_by_their_budget_are_unknown_never_losing() -> None:
    deal = Deal.pysol(2)
    full = rate(deal, memory_mb=MEMORY_MB)
    starved = rate(deal, move_nodes=1, memory_mb=MEMORY_MB)
    assert starved.line == full.line
    assert starved.unknown > 0
    for poor, rich in zip(starved.steps, full.steps):
        # with one position per solve only a deadlock proves a loss; the rest are unknown
        assert set(poor.losing) <= set(rich.losing)
        assert set(poor.unknown).isdisjoint(poor.losing)
        assert set(rich.losing) <= set(poor.losing) | set(poor.unknown)
    assert starved.score <= full.score  # unknown moves count as not losing: a lower bound


def test_a_game_of_its_own_weight_counts_it_for_each_move() -> None:
    castles = PRESETS["castles_in_spain"]
    assert line_bits(castles) == GAME_LINE_BITS["castles_in_spain"] != LINE_BITS
    assert line_bits(PRESETS["bakers_dozen"]) == LINE_BITS
    assert line_bits(castles.replace(empty_column="kings_only")) == LINE_BITS  # another game: the default
    rating = rate(Deal.pysol(3, game="castles_in_spain"), memory_mb=MEMORY_MB)
    assert rating.verdict is Verdict.SOLVED and rating.line_bits == line_bits(castles)
    assert rating.difficulty == difficulty_of(rating.score, rating.positions, line_bits(castles))
    assert rating.difficulty == pytest.approx(rating.score + 0.1 * rating.positions)
    assert rating.to_json()["line_bits"] == line_bits(castles)
    assert f"+ {line_bits(castles)} x {rating.positions} moves" in str(rating)
    # and the grade comes from the cut-points of that weight
    assert rating.grade == grade_of(rating.difficulty, shipped_cuts(castles) or ())


def test_grades_from_cut_points() -> None:
    cuts = (0.5, 1.0, 2.0)
    assert [grade_of(x, cuts) for x in (0.0, 0.5, 0.7, 1.0, 1.5, 2.0, 9.0)] == [
        "easy", "easy", "medium", "medium", "hard", "hard", "expert"]
    rating = rate(Deal.pysol(2), cuts=cuts, memory_mb=MEMORY_MB)
    assert rating.difficulty == difficulty_of(rating.score, rating.positions)
    assert rating.difficulty == pytest.approx(rating.score + LINE_BITS * len(rating.line))
    assert rating.grade == grade_of(rating.difficulty, cuts) and rating.grade in GRADES
    # without cut-points: the shipped ones of the deal's preset, if it has them
    shipped = shipped_cuts(PRESETS["bakers_dozen"])
    expected = None if shipped is None else grade_of(rating.difficulty, shipped)
    assert rate(Deal.pysol(2), memory_mb=MEMORY_MB).grade == expected
    # a preset with a knob changed is another game: no shipped grade
    from bakersdozen.rules import EmptyColumn

    other = PRESETS["bakers_dozen"].replace(empty_column=EmptyColumn.ANY_CARD)
    assert shipped_cuts(other) is None


@pytest.mark.parametrize(("cuts", "error", "words"), [
    ((1.0, 2.0), ArgumentError, "cut-points must be 3 numbers"),
    ((2.0, 1.0, 3.0), ArgumentError, "increasing order"),
    ((1.0, math.nan, 3.0), ArgumentError, "finite"),
    ((1.0, "2", 3.0), TypeError, "must be numbers"),
    (5, TypeError, "sequence of three numbers"),
])
def test_bad_cut_points(cuts: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        grade_of(1.0, cuts)  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="needs a Deal"):
        rate("deal 1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="line_nodes must be an int"):
        rate(Deal.pysol(1), line_nodes=True)
    with pytest.raises(ArgumentError, match="move_nodes must be in 1"):
        rate(Deal.pysol(1), move_nodes=0)
    with pytest.raises(ArgumentError, match="lookahead must be in 1..4"):
        play_greedy(Deal.pysol(1), lookahead=0)
    with pytest.raises(TypeError, match="seed must be an int"):
        play_greedy(Deal.pysol(1), seed=1.5)  # type: ignore[arg-type]


# --- the player


def test_the_players_games_replay_and_repeat() -> None:
    wins = 0
    for number in range(1, 13):
        deal = Deal.pysol(number)
        game = play_greedy(deal, seed=3)
        replay = check(deal, game.moves)
        assert replay.won == game.won
        wins += game.won
        if not game.won:  # it stopped where it had no new position left, or at its move cap
            assert not replay.position.is_won
        assert play_greedy(deal, seed=3) == game
    assert wins > 0  # deal 4 is won under the default policy


@pytest.mark.parametrize(("player", "deals"), [
    (lambda deal, seed: play_greedy(deal, seed=seed, lookahead=2), 30),
    (lambda deal, seed: play_rollouts(deal, seed=seed, rollouts=4), 40),
], ids=["greedy", "rollouts"])
def test_a_player_on_reduced_packs_never_claims_a_lost_deal(player, deals: int) -> None:  # type: ignore[no-untyped-def]
    won = 0
    for seed in range(deals):
        rng = random.Random(seed)
        cards = pack(4)
        rng.shuffle(cards)
        deal = stable_deal(cards, 4)
        game = player(deal, seed)
        assert check(deal, game.moves).won == game.won
        if game.won:
            assert brute_force_solvable(deal)
            won += 1
    assert won > 0


def test_evaluate_counts_home_cards_and_blocking_cards() -> None:
    def blocking(position: Deal) -> int:
        return sum(
            any(below.rank < card.rank for below in column[:i])
            for column in position.columns for i, card in enumerate(column)
        )

    deal = Deal.pysol(1)
    line = solve(deal).moves
    for k in range(0, len(line), 7):
        position = check(deal, line[:k]).position
        assert evaluate(position) == 10 * sum(position.foundations) - blocking(position)
    assert evaluate(check(deal, line).position) == 10 * 52


# --- bakersdozen rate


def test_rate_command_json_and_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["rate", "2", "--json"]) == 0
    out, _err = capsys.readouterr()
    data = json.loads(out)
    assert data["game"] == "bakers_dozen" and data["verdict"] == "solved"
    assert data == {"game": "bakers_dozen", **rate(Deal.pysol(2)).to_json()}
    board = tmp_path / "deal2.txt"
    board.write_text(Deal.pysol(2).to_text(), encoding="utf-8")
    assert main(["rate", str(board)]) == 0
    out, _err = capsys.readouterr()
    assert out.startswith(f"difficulty: {data['difficulty']:.2f} (score ")
    assert f"grade: {data['grade'] or 'none (no cut-points for this game)'}" in out
    cuts = tmp_path / "cuts.json"
    cuts.write_text(json.dumps({"bakers_dozen": [0.1, 0.2, 0.3]}), encoding="utf-8")
    assert main(["rate", "2", "--cuts", str(cuts), "--json"]) == 0
    out, _err = capsys.readouterr()
    assert json.loads(out)["grade"] == grade_of(data["difficulty"], (0.1, 0.2, 0.3))


def test_rate_command_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "64"]) == 1
    assert capsys.readouterr()[0].startswith("unsolvable")
    assert main(["rate", "417", "--line-nodes", "1000", "--json"]) == 3
    assert json.loads(capsys.readouterr()[0])["verdict"] == "unknown"
    assert main(["rate", "1", "--game", "good_measure", "--json"]) == 1  # deal 1 of Good Measure
    assert json.loads(capsys.readouterr()[0])["game"] == "good_measure"


@pytest.mark.parametrize(("argv", "words"), [
    (["rate", "0"], "argument N|BOARD: a PySol deal number must be at least 1"),
    (["rate", "/no/such/board"], "/no/such/board: cannot read"),
    (["rate", "1", "--move-nodes", "0"], "argument --move-nodes:"),
    (["rate", "1", "--game", "klondike"], ""),
    (["rate", "1", "--cuts", "/no/such/cuts.json"], "cannot read '/no/such/cuts.json'"),
    (["rate", "1", "--cuts", "CUTS_OTHER"], "no cut-points for 'bakers_dozen'"),
    (["rate", "1", "--cuts", "CUTS_BAD"], "not JSON"),
])
def test_rate_command_errors(argv: list[str], words: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"good_measure": [1, 2, 3]}), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    argv = [{"CUTS_OTHER": str(other), "CUTS_BAD": str(bad)}.get(word, word) for word in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.startswith("bakersdozen rate: error: ") and err.count("\n") == 1, err
    assert words in err
    assert out == ""


def test_load_cuts_checks_each_game(tmp_path: Path) -> None:
    path = tmp_path / "cuts.json"
    path.write_text(json.dumps({"bakers_dozen": [3, 2, 1]}), encoding="utf-8")
    with pytest.raises(ArgumentError, match="'bakers_dozen': cut-points must be in increasing"):
        load_cuts(str(path))
    path.write_text("[1, 2, 3]", encoding="utf-8")
    with pytest.raises(ArgumentError, match="must be a JSON object"):
        load_cuts(str(path))


# --- results/difficulty.py


def test_batch_run_resumes_cuts_and_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    batch = _batch()
    output = tmp_path / "bd.jsonl"
    assert batch.main(["run", "1-2", "--game", "bakers_dozen", "--output", str(output)]) == 0
    lines = output.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [1, 2]
    for line in lines:
        record = json.loads(line)
        expected = rate(Deal.pysol(record["deal"])).to_json()
        assert {k: record[k] for k in expected} == expected
    # a run killed while writing deal 3's line: the cut line is ignored and deal 3 rated again
    with open(output, "a", encoding="utf-8") as stream:
        stream.write('{"deal": 3, "game": "bakers_dozen", "sco')
    assert batch.main(["run", "1-5", "--game", "bakers_dozen", "--output", str(output),
                       "--jobs", "2"]) == 0
    err = capsys.readouterr()[1]
    assert "2 deals already in" in err and "3 to rate" in err
    records = batch.read_lines(str(output))
    assert sorted(r["deal"] for r in records) == [1, 2, 3, 4, 5]
    assert all(r["verdict"] == "solved" for r in records)
    # the same run again rates nothing
    assert batch.main(["run", "1-5", "--game", "bakers_dozen", "--output", str(output)]) == 0
    assert "0 to rate" in capsys.readouterr()[1]
    assert len(batch.read_lines(str(output))) == 5

    assert batch.main(["cuts", str(output), "--json"]) == 0
    cuts = json.loads(capsys.readouterr()[0])
    scores = sorted(difficulty_of(r["score"], r["positions"]) for r in records)
    assert cuts == {"bakers_dozen": [scores[1], scores[2], scores[3]]}  # nearest-rank quartiles
    cuts_file = tmp_path / "cuts.json"
    cuts_file.write_text(json.dumps(cuts), encoding="utf-8")
    assert batch.main(["validate", str(output), "--cuts", str(cuts_file), "--per-grade", "1"]) == 0
    table = capsys.readouterr()[0].splitlines()
    rows = [line.split("|")[1:-1] for line in table if line.startswith("| bakers_dozen")]
    assert [row[1].strip() for row in rows] == list(GRADES)
    graded = {grade_of(difficulty_of(r["score"], r["positions"]), cuts["bakers_dozen"])
              for r in records}
    for row in rows:
        deals = int(row[2])
        assert deals == (1 if row[1].strip() in graded else 0)

    # --plays keeps each game's result, and a second validation reads them back
    # instead of playing again: a result changed in the file is the one counted
    plays = tmp_path / "plays.jsonl"
    argv = ["validate", str(output), "--cuts", str(cuts_file), "--per-grade", "5",
            "--plays", str(plays)]
    assert batch.main(argv) == 0
    first = capsys.readouterr()[0]
    kept = [json.loads(line) for line in plays.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["deal"] for r in kept) == [1, 2, 3, 4, 5]
    assert all(r["player"] == "rollouts" and r["seed"] == 0 for r in kept)
    assert batch.main(argv) == 0
    assert capsys.readouterr()[0] == first
    assert len(plays.read_text(encoding="utf-8").splitlines()) == 5  # nothing played again
    flipped = [dict(r, won=not r["won"]) for r in kept]
    plays.write_text("".join(json.dumps(r) + "\n" for r in flipped), encoding="utf-8")
    assert batch.main(argv) == 0
    won_first = sum(int(line.split("|")[4]) for line in first.splitlines()
                    if line.startswith("| bakers_dozen"))
    won_flipped = sum(int(line.split("|")[4]) for line in capsys.readouterr()[0].splitlines()
                      if line.startswith("| bakers_dozen"))
    assert won_flipped == 5 - won_first
    # another player's results are not reused: played again and appended
    assert batch.main(argv + ["--rollouts", "1"]) == 0
    assert len(plays.read_text(encoding="utf-8").splitlines()) == 10
    capsys.readouterr()
    # a result that is not a bool, a line of garbage or one cut short is not
    # believed: those deals are played again, on lines of their own
    plays.write_bytes(b"".join(json.dumps(dict(r, won=str(r["won"]))).encode() + b"\n"
                               for r in kept) + b"\xff\xfe garbage\n" + b'{"deal": 1, "ga')
    assert batch.main(argv) == 0
    assert capsys.readouterr()[0] == first
    again = plays.read_bytes().splitlines()
    assert [json.loads(line)["won"] for line in again[-5:]] == [r["won"] for r in kept]
    assert again[-6] == b'{"deal": 1, "ga'
    # a gzipped name cannot be appended to: refused before any game
    assert batch.main(argv[:-1] + [str(tmp_path / "plays.jsonl.gz")]) == 2
    assert "give a name without .gz" in capsys.readouterr()[1]


def test_pack_keeps_what_the_grades_need_and_a_run_resumes_from_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = _batch()
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    packed = tmp_path / "ratings.jsonl.gz"
    assert batch.main(["run", "1-3", "--game", "castles_in_spain", "--output", str(first)]) == 0
    assert batch.main(["pack", str(first), "--output", str(packed)]) == 0
    assert "3 ratings (3 new)" in capsys.readouterr()[1]
    # the next session: the packed lines, unzipped, are the deals done
    second.write_bytes(gzip.decompress(packed.read_bytes()))
    assert batch.main(["run", "1-5", "--game", "castles_in_spain", "--output", str(second)]) == 0
    assert "3 deals already in" in capsys.readouterr()[1]
    assert batch.main(["pack", str(second), "--output", str(packed)]) == 0
    assert "5 ratings (2 new)" in capsys.readouterr()[1]
    kept = batch.read_lines(str(packed))
    full = {r["deal"]: r for r in batch.read_lines(str(first)) + batch.read_lines(str(second))}
    assert [r["deal"] for r in kept] == [1, 2, 3, 4, 5]
    for record in kept:
        assert "line" not in record and "steps" not in record
        assert record == {k: v for k, v in full[record["deal"]].items()
                          if k not in ("line", "steps")}
    # the grades read the packed file as the full one
    for name in (str(second), str(packed)):
        assert batch.main(["cuts", name, "--json"]) == 0
    assert len(set(capsys.readouterr()[0].splitlines())) == 1
    # the same ratings packed again: the same bytes
    before = packed.read_bytes()
    assert batch.main(["pack", str(second), "--output", str(packed)]) == 0
    assert packed.read_bytes() == before
    assert batch.main(["pack", str(second), "--output", str(tmp_path / "plain.jsonl")]) == 2
    assert batch.main(["pack", str(tmp_path / "none"), "--output", str(packed)]) == 2
    assert "none: no such file" in capsys.readouterr()[1]


def test_batch_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = _batch()
    assert batch.main(["cuts", str(tmp_path / "none.jsonl")]) == 2
    assert "no such file" in capsys.readouterr()[1]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert batch.main(["cuts", str(empty)]) == 2
    assert "no rated (solved) deal" in capsys.readouterr()[1]
    with pytest.raises(SystemExit):
        batch.main(["run", "1-2", "--game", "klondike", "--output", str(empty)])
    assert "unknown game 'klondike'" in capsys.readouterr()[1]


def test_step_json_shape() -> None:
    step = Step(3, (), ())
    rating = Rating(Verdict.SOLVED, score=0.0, steps=(step,))
    assert rating.to_json()["steps"] == [{"legal": 3, "losing": [], "unknown": []}]


@pytest.mark.parametrize("how", ["SIGINT", "SIGKILL"])
def test_a_stopped_run_keeps_its_finished_deals_and_resumes(how: str, tmp_path: Path) -> None:
    import signal
    import time

    from children import started

    output = tmp_path / "bd.jsonl"
    argv = [sys.executable, str(ROOT / "results" / "difficulty.py"), "run", "1-200",
            "--game", "bakers_dozen", "--output", str(output), "--jobs", "2"]
    with started(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(_batch().read_lines(str(output))) < 2:
            time.sleep(0.1)
        assert len(_batch().read_lines(str(output))) >= 2
        if how == "SIGINT":  # Ctrl-C at the terminal: the whole group
            os.killpg(process.pid, signal.SIGINT)
            _out, err = process.communicate(timeout=60)
            assert process.returncode == 130 and "difficulty.py run: interrupted" in err
            assert "Traceback" not in err, err  # the whole of it if it fails
        else:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(30)
    done = _batch().read_lines(str(output))
    assert len({r["deal"] for r in done}) == len(done) >= 2
    for record in done[:2]:  # the lines written are whole and right
        expected = rate(Deal.pysol(record["deal"])).to_json()
        assert {k: record[k] for k in expected} == expected
    # a resumed run skips them
    batch = _batch()
    assert batch.main(["run", ",".join(str(r["deal"]) for r in done), "--game", "bakers_dozen",
                       "--output", str(output)]) == 0
    assert len(batch.read_lines(str(output))) == len(done)


# --- the Monte Carlo player


def test_the_monte_carlo_players_games_replay_and_repeat() -> None:
    wins = 0
    for game in ("bakers_dozen", "good_measure", "spanish_patience", "castles_in_spain",
                 "spanish_patience_ii"):
        for number in range(1, 9):
            deal = Deal.pysol(number, game=game)
            played = play_rollouts(deal, seed=5)
            replay = check(deal, played.moves)
            assert replay.won == played.won  # the checker's verdict, and the engine's agrees
            if not played.won:
                assert not replay.position.is_won
            assert played.policy == (f"rollouts={player_rollouts(deal.rules)} "
                                     f"playout_moves={player_playout_moves(deal.rules)}")
            assert play_rollouts(deal, seed=5) == played  # the same seed, the same game
            wins += played.won
    assert wins > 0


def test_more_playouts_win_more() -> None:
    deals = [Deal.pysol(n, game="good_measure") for n in range(1, 61)]
    weak = sum(play_rollouts(d, rollouts=1).won for d in deals)
    strong = sum(play_rollouts(d, rollouts=32).won for d in deals)
    assert strong > weak


def test_player_rollouts_by_preset() -> None:
    assert player_rollouts(PRESETS["bakers_dozen"]) == PLAYER_ROLLOUTS["bakers_dozen"]
    assert player_rollouts(PRESETS["good_measure"]) == PLAYER_ROLLOUTS["good_measure"]
    from bakersdozen.rules import EmptyColumn

    other = PRESETS["good_measure"].replace(empty_column=EmptyColumn.ANY_CARD)
    assert player_rollouts(other) == 8


def test_player_playout_moves_by_preset() -> None:
    assert player_playout_moves(PRESETS["spanish_patience_ii"]) == 1
    assert player_playout_moves(PRESETS["bakers_dozen"]) == 200
    # Rules like a preset's but changed are not that preset: the default.
    other = PRESETS["spanish_patience_ii"].replace(foundation_return=True)
    assert other != PRESETS["spanish_patience_ii"]
    assert player_playout_moves(other) == 200
    deal = Deal.pysol(3, game="spanish_patience_ii")
    assert play_rollouts(deal, seed=1).policy == "rollouts=1 playout_moves=1"
    assert play_rollouts(deal, seed=1, playout_moves=50).policy == "rollouts=1 playout_moves=50"


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"rollouts": 0}, ArgumentError, "rollouts must be in 1..1024"),
    ({"rollouts": 2000}, ArgumentError, "rollouts must be in 1..1024"),
    ({"playout_moves": 0}, ArgumentError, "playout_moves must be in 1..1000"),
    ({"seed": -1}, ArgumentError, "seed must be in 0.."),
    ({"seed": 2**64}, ArgumentError, "seed must be in 0.."),
    ({"rollouts": 2.5}, TypeError, "rollouts must be an int"),
    ({"seed": True}, TypeError, "seed must be an int"),
])
def test_monte_carlo_bad_arguments(kwargs: dict[str, object], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        play_rollouts(Deal.pysol(1), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a Deal"):
        play_rollouts("deal 1")  # type: ignore[arg-type]


# --- the shipped grades


def test_the_shipped_grades_are_sound() -> None:
    """Every graded row of a table is solved, inside the graded deals, and has the share
    of its grade that quartile cut-points give; few deals solved within the rating's
    line budget are left without a grade."""
    import gzip
    from importlib import resources

    table = grade_table()
    for game, entry in table.items():
        assert game in PRESETS
        first, last = entry["deals"]  # type: ignore[misc]
        assert entry["line_bits"] == line_bits(PRESETS[game])
        path = resources.files("bakersdozen").joinpath("tables", f"{game}.csv.gz")
        rows = gzip.decompress(path.read_bytes()).decode("ascii").splitlines()[1:]
        counts = dict.fromkeys(GRADES, 0)
        # solved in the table but not graded: the rating's own search found no
        # line within its budget.  Deals the table's searches needed more than
        # that budget for (later passes with larger ones) are expected among
        # them; of those the table solved within it, at most 1 % may be.
        ungraded = 0
        for row in rows:
            fields = row.split(",")
            number, verdict, grade = int(fields[0]), fields[1], fields[5]
            if grade:
                assert verdict == "solved" and first <= number <= last and grade in GRADES
                counts[grade] += 1
            elif verdict == "solved" and first <= number <= last:
                ungraded += int(fields[2]) <= entry["line_nodes"]  # type: ignore[operator]
        assert sum(counts.values()) == entry["rated"]
        assert ungraded <= 0.01 * entry["rated"], (game, ungraded)
        for grade in GRADES:  # quartiles: each grade about a quarter
            assert 0.15 < counts[grade] / entry["rated"] < 0.35, (game, counts)


def test_a_shipped_grade_is_what_rate_says() -> None:
    from bakersdozen import winnable

    for game in grade_table():
        for number in (2, 24):
            known = winnable(number, game)
            if known.verdict is not Verdict.SOLVED:
                continue
            rating = rate(Deal.pysol(number, game=game))
            assert rating.grade == known.difficulty


def test_ratings_use_the_search_the_grades_were_made_with() -> None:
    # Portuguese 4660 is lost as dealt by rule 3 with the Kings left out,
    # which came after the grades: inside rated_search the search is the
    # one the table's 942,200 positions came from
    from bakersdozen.solver import rated_search

    deal = Deal.pysol(4660, game="portuguese_solitaire")
    assert solve(deal, time_limit=None).nodes == 0
    with rated_search():
        searched = solve(deal, time_limit=None)
    assert searched.verdict is Verdict.UNSOLVABLE and searched.nodes == 942_200
    assert solve(deal, time_limit=None).nodes == 0     # the block ended
    # Baker's Dozen's play is the same either way
    plain = solve(Deal.pysol(3266), time_limit=None).nodes
    with rated_search():
        assert solve(Deal.pysol(3266), time_limit=None).nodes == plain


def test_publish_writes_the_grades_into_a_table(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    import gzip
    import shutil

    from bakersdozen.winnability import _Table

    batch = _batch()
    ratings = tmp_path / "bd.jsonl"
    assert batch.main(["run", "1-8", "--game", "bakers_dozen", "--output", str(ratings)]) == 0
    tables = tmp_path / "tables"
    tables.mkdir()
    source = ROOT / "src" / "bakersdozen" / "tables" / "bakers_dozen.csv.gz"
    shutil.copy(source, tables / "bakers_dozen.csv.gz")
    assert batch.main(["publish", str(ratings), "--deals", "1-8", "--tables", str(tables)]) == 0
    capsys.readouterr()
    data = json.loads((tables / "grades.json").read_text(encoding="utf-8"))
    entry = data["games"]["bakers_dozen"]
    assert entry["deals"] == [1, 8] and entry["rated"] == 8 and entry["line_bits"] == LINE_BITS
    table = _Table("bakers_dozen", gzip.decompress((tables / "bakers_dozen.csv.gz").read_bytes())
                   .decode("ascii"))
    for record in batch.read_lines(str(ratings)):
        expected = grade_of(difficulty_of(record["score"], record["positions"]), entry["cuts"])
        assert table.row(record["deal"])[3] == expected
    before = _Table("bakers_dozen", gzip.decompress(source.read_bytes()).decode("ascii"))
    assert table.row(9) == before.row(9)  # outside the range: as it was
    # a range with deals not rated is refused
    assert batch.main(["publish", str(ratings), "--deals", "1-9", "--tables", str(tables)]) == 2
    assert "1 deals of 1-9 not rated" in capsys.readouterr()[1]


def test_tune_prints_a_row_per_weight(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = _batch()
    ratings = tmp_path / "bd.jsonl"
    assert batch.main(["run", "1-8", "--game", "bakers_dozen", "--output", str(ratings)]) == 0
    capsys.readouterr()
    assert batch.main(["tune", str(ratings), "--deals", "1-8"]) == 0
    out = capsys.readouterr()[0]
    rows = [line for line in out.splitlines() if line[:3] in {"| 0", "| 1", "| 2"}]
    assert [float(row.split("|")[1]) for row in rows] == list(batch.TUNE_WEIGHTS)
    assert str(LINE_BITS) in [row.split("|")[1].strip() for row in rows]
    for row in rows:
        assert 0.0 <= float(row.split("|")[7]) <= 1.0  # the AUC


def test_auc_against_counting_pairs() -> None:
    auc = _batch().auc
    rng = random.Random(4)
    for _ in range(50):
        values = [float(rng.randint(0, 6)) for _ in range(rng.randint(2, 30))]
        lost = [rng.random() < 0.5 for _ in values]
        pairs = [(a, b) for a, x in zip(values, lost) if x for b, y in zip(values, lost) if not y]
        if not pairs:
            assert auc(values, lost) == 0.5
            continue
        expected = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs) / len(pairs)
        assert auc(values, lost) == pytest.approx(expected)


def test_the_cli_and_the_package_agree_on_the_grades() -> None:
    from bakersdozen.cli import deals as deals_command

    assert deals_command.GRADES == GRADES
