"""Difficulty grades: rate many deals, cut the scores at quartiles, validate with the player.

    python results/difficulty.py run      --game G A-B --output FILE [--jobs J]
                                          [--line-nodes N] [--move-nodes N] [--shortest-nodes N]
    python results/difficulty.py pack     FILE --output RATINGS.jsonl.gz
    python results/difficulty.py cuts     FILE [FILE ...] [--json]
    python results/difficulty.py validate FILE --cuts CUTS.json [--per-grade K]
                                          [--player rollouts|greedy] [--rollouts R]
                                          [--playout-moves M] [--lookahead L] [--seed S] [--jobs J]

``run`` rates deals A..B of game G with :func:`bakersdozen.difficulty.rate`
and appends one JSON line per deal to FILE (keep it outside the work tree):
``{"deal": N, "game": G, "seconds": ..., <the Rating's fields>}``.  It is
resumable: the deals already in FILE (with the same game and budgets) are
skipped, each line is written and flushed as its deal finishes, and a line
cut short by a kill is ignored (and the deal rated again), so a killed run
loses only the deals in progress.  Deals run in ``--jobs`` worker processes
(:mod:`bakersdozen.survey.workers`: they die with the run; Ctrl-C stops it,
exit status 130).

``pack`` keeps a run's ratings in the repository (``results/ratings/``):
it merges the lines of FILE into the gzipped RATINGS (made if need be),
one line per game, deal and budgets (FILE's where both have one), sorted,
without the two long fields, ``line`` and ``steps``; what ``cuts``,
``validate`` and ``publish`` read is kept, and the lines of a packed file,
unzipped into a ``run``'s FILE, count as done, so a run of several
sessions resumes from it (``gzip -dc RATINGS.jsonl.gz > FILE``).  Every
command reads a FILE ending in ``.gz`` as gzipped.

``cuts`` reads such files (one game each, or several) and prints, per game,
the quartiles of the scores of the rated (solved) deals: the cut-points
easy/medium, medium/hard, hard/expert (:func:`bakersdozen.stats.percentile`,
nearest rank).  ``--json`` prints them as the JSON object that
``bakersdozen rate --cuts`` and ``validate --cuts`` read.

``validate`` grades the solved deals of FILE with the cut-points of its
game, plays :func:`bakersdozen.difficulty.play_rollouts` (or ``--player greedy``,
:func:`~bakersdozen.difficulty.play_greedy`) on the first K deals
(by number) of each grade, and prints a Markdown table: grade, deals, wins,
the win rate with its 95 % Wilson interval
(:func:`bakersdozen.stats.wilson_interval`); a win is the verdict of
:func:`bakersdozen.check` on the player's moves.

docs/difficulty.md gives the commands of the full run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bakersdozen.difficulty import (
    DEFAULT_LINE_NODES, DEFAULT_LOOKAHEAD, DEFAULT_MOVE_NODES, DEFAULT_PLAYOUT_MOVES,
    DEFAULT_SHORTEST_NODES, GRADES, difficulty_of, grade_of, line_bits, load_cuts, play_deal,
    rate_deal,
)
from bakersdozen.errors import BakersDozenError
from bakersdozen.rules import PRESETS
from bakersdozen.stats import percentile, wilson_interval

EXIT_INTERRUPTED = 130


def difficulty(record: dict[str, Any]) -> float:
    """The difficulty of a rated (solved) record: its score and line length,
    with its game's weight of a move (``line_bits``; the records' own
    ``difficulty`` field is the one rate() gave when the record was made)."""
    rules = PRESETS.get(record["game"])
    if rules is None:
        raise BakersDozenError(f"deal {record['deal']}: no preset named {record['game']!r}")
    return difficulty_of(record["score"], record["positions"], line_bits(rules))


def read_lines(path: str) -> list[dict[str, Any]]:
    """The complete JSON lines of *path* ([] if it does not exist; gzipped if
    its name ends in ``.gz``); a broken line is skipped."""
    stream: Any
    try:
        if path.endswith(".gz"):
            stream = gzip.open(path, "rb")
        else:
            stream = open(path, "rb")
    except FileNotFoundError:
        return []
    out = []
    with stream:
        for line in stream:
            if not line.endswith(b"\n"):
                continue  # cut short by a kill: the deal runs again
            try:
                record = json.loads(line.decode("utf-8"))
            except ValueError:  # UnicodeDecodeError too
                continue
            if isinstance(record, dict) and isinstance(record.get("deal"), int):
                out.append(record)
    return out


def pool_map(fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int
             ) -> Iterator[Any]:
    """``fn(*task)`` for each task, in *jobs* worker processes (in this one for 1),
    yielded as they finish; at most ``2 * jobs`` tasks in flight."""
    if jobs == 1:
        for task in tasks:
            yield fn(*task)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    from bakersdozen.survey.workers import process_executor, stop, submit

    executor = process_executor(jobs)
    try:
        pending: set[Any] = set()
        queue = iter(tasks)
        for task in queue:
            pending.add(submit(executor, fn, *task))
            while len(pending) >= 2 * jobs:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        stop(executor)


#: The fields ``pack`` leaves out: the line and the figures of its every step
#: (all but a few hundred bytes of a line).
UNPACKED = ("line", "steps")


def _identity(record: dict[str, Any]) -> tuple[Any, ...]:
    return (record.get("game"), record["deal"], record.get("line_nodes"),
            record.get("shortest_nodes"), record.get("move_nodes"))


def command_pack(args: argparse.Namespace) -> int:
    if not args.output.endswith(".gz"):
        raise BakersDozenError(f"--output must name a .gz file, not {args.output!r}")
    if not os.path.exists(args.file):
        raise BakersDozenError(f"{args.file}: no such file")
    merged = {_identity(r): r for r in read_lines(args.output)}
    before = len(merged)
    for record in read_lines(args.file):
        merged[_identity(record)] = {k: v for k, v in record.items() if k not in UNPACKED}
    lines = [json.dumps(merged[key]) + "\n"
             for key in sorted(merged, key=lambda k: (str(k[0]), k[1], str(k[2:])))]
    temporary = args.output + ".tmp"
    with open(temporary, "wb") as raw:
        # mtime 0 and no file name: the same ratings give the same bytes
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as stream:
            stream.write("".join(lines).encode("utf-8"))
    os.replace(temporary, args.output)
    print(f"{args.output}: {len(merged)} ratings ({len(merged) - before} new)", file=sys.stderr)
    return 0


def command_run(args: argparse.Namespace) -> int:
    from bakersdozen.survey.tasks import DealRange

    done = {
        r["deal"] for r in read_lines(args.output)
        if r.get("game") == args.game and r.get("line_nodes") == args.line_nodes
        and r.get("move_nodes") == args.move_nodes and r.get("shortest_nodes") == args.shortest_nodes
    }
    todo = [(args.game, n, args.line_nodes, args.move_nodes, args.shortest_nodes)
            for n in DealRange(args.deals) if n not in done]
    print(f"{args.game} {args.deals}: {len(done)} deals already in {args.output}, "
          f"{len(todo)} to rate", file=sys.stderr)
    with open(args.output, "a+", encoding="utf-8") as out:
        out.seek(0, os.SEEK_END)
        if out.tell() > 0:
            out.seek(out.tell() - 1)
            if out.read(1) != "\n":
                out.write("\n")  # end a line cut short, so that the next one stands alone
        for record in pool_map(rate_deal, todo, args.jobs):
            out.write(json.dumps(record) + "\n")
            out.flush()
    return 0


def _in_span(record: dict[str, Any], span: tuple[int, int] | None) -> bool:
    return span is None or span[0] <= record["deal"] <= span[1]


def _span(text: str) -> tuple[int, int]:
    first, dash, last = text.partition("-")
    try:
        low, high = int(first), int(last if dash else first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a range A-B: {text!r}") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"not a range A-B with 1 <= A <= B: {text!r}")
    return low, high


def command_cuts(args: argparse.Namespace) -> int:
    scores: dict[str, list[float]] = {}
    for path in args.files:
        if not os.path.exists(path):
            raise BakersDozenError(f"{path}: no such file")
        for record in read_lines(path):
            if record.get("verdict") == "solved" and _in_span(record, args.deals):
                scores.setdefault(record["game"], []).append(difficulty(record))
    if not scores:
        raise BakersDozenError("no rated (solved) deal in " + ", ".join(args.files))
    cuts = {game: [percentile(values, p) for p in (25, 50, 75)] for game, values in scores.items()}
    if args.json:
        print(json.dumps(cuts, sort_keys=True))
    else:
        print("| game | deals rated | easy/medium | medium/hard | hard/expert |")
        print("|---|---:|---:|---:|---:|")
        for game in sorted(cuts):
            a, b, c = cuts[game]
            print(f"| {game} | {len(scores[game])} | {a:.3f} | {b:.3f} | {c:.3f} |")
    return 0


def _player_key(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of validate's player, as a record of ``--plays`` stores them."""
    if args.player == "greedy":
        return {"player": "greedy", "seed": args.seed, "lookahead": args.lookahead}
    return {"player": "rollouts", "seed": args.seed, "rollouts": args.rollouts,
            "playout_moves": args.playout_moves}


def _load_plays(args: argparse.Namespace) -> dict[tuple[str, int], bool]:
    """The games already played by *args*' player in the ``--plays`` file, by
    (game, deal); a record of another player or other settings is not used."""
    if args.plays is None:
        return {}
    if args.plays.endswith(".gz"):
        raise BakersDozenError(f"--plays {args.plays}: a plays file is plain JSON lines, "
                               "appended to; give a name without .gz")
    try:  # written to as games end: a path that cannot be is refused before the first
        with open(args.plays, "ab+") as stream:
            size = stream.seek(0, os.SEEK_END)
            if size:
                stream.seek(size - 1)
                if stream.read(1) != b"\n":  # a line cut short by a kill:
                    stream.write(b"\n")  # the next one starts on a line of its own
    except OSError as error:
        raise BakersDozenError(f"--plays {args.plays}: cannot be written: "
                               f"{error.strerror or error}") from None
    wanted = _player_key(args)
    return {(r["game"], r["deal"]): r["won"] for r in read_lines(args.plays)
            if isinstance(r.get("game"), str) and type(r.get("won")) is bool
            and all(r.get(k) == v for k, v in wanted.items())}


def _record_play(args: argparse.Namespace, game: str, number: int, won: bool) -> None:
    """Append one game's result to the ``--plays`` file (if any): a JSON line
    with the game, the deal, the win and the player's settings."""
    if args.plays is None:
        return
    record = {"game": game, "deal": number, "won": won, **_player_key(args)}
    with open(args.plays, "a", encoding="utf-8") as out:
        out.write(json.dumps(record, sort_keys=True) + "\n")


def command_validate(args: argparse.Namespace) -> int:
    table = load_cuts(args.cuts)
    plays = _load_plays(args)
    records = [r for r in read_lines(args.file)
               if r.get("verdict") == "solved" and _in_span(r, args.deals)]
    if not records:
        raise BakersDozenError(f"{args.file}: no rated (solved) deal")
    by_grade: dict[tuple[str, str], list[int]] = {}
    for record in sorted(records, key=lambda r: (r["game"], r["deal"])):
        game = record["game"]
        if game not in table:
            raise BakersDozenError(f"{args.cuts}: no cut-points for {game!r}")
        grade = grade_of(difficulty(record), table[game])
        by_grade.setdefault((game, grade), []).append(record["deal"])
    span = "all" if args.deals is None else f"{args.deals[0]}-{args.deals[1]}"
    if args.player == "rollouts":
        print(f"player: play_rollouts rollouts={args.rollouts or 'per game'} "
              f"playout_moves={args.playout_moves or 'per game'} seed={args.seed}; deals {span}")
    else:
        print(f"player: play_greedy lookahead={args.lookahead} seed={args.seed}; deals {span}")
    print("| game | grade | deals | won | win rate | 95 % Wilson interval |")
    print("|---|---|---:|---:|---:|---|")
    for game in sorted({g for g, _ in by_grade}):
        for grade in GRADES:
            deals = by_grade.get((game, grade), [])[: args.per_grade]
            tasks = [(game, n, args.seed, args.player, args.rollouts, args.playout_moves,
                      args.lookahead) for n in deals]
            won = sum(plays[(game, n)] for n in deals if (game, n) in plays)
            fresh = [task for task in tasks if (game, task[1]) not in plays]
            for number, result in pool_map(play_deal, fresh, args.jobs):
                won += result
                _record_play(args, game, number, result)
            if not deals:
                print(f"| {game} | {grade} | 0 | 0 | - | - |")
                continue
            low, high = wilson_interval(won, len(deals))
            print(f"| {game} | {grade} | {len(deals)} | {won} | {100 * won / len(deals):.1f} % "
                  f"| {100 * low:.1f}–{100 * high:.1f} % |", flush=True)
    return 0


#: The weights of a move of the line that ``tune`` compares (LINE_BITS is the one
#: chosen, GAME_LINE_BITS a game's own).
TUNE_WEIGHTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.0)


def auc(values: list[float], lost: list[bool]) -> float:
    """The chance that a deal the player lost has a greater value than one it won
    (ties count half): the area under the ROC curve of *values* as a predictor of a
    loss (Mann-Whitney U / (losses * wins)); 0.5 is no better than chance."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):  # average ranks over ties
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    losses = sum(lost)
    wins = len(lost) - losses
    if not losses or not wins:
        return 0.5
    u = sum(r for r, x in zip(ranks, lost) if x) - losses * (losses + 1) / 2
    return u / (losses * wins)


def command_tune(args: argparse.Namespace) -> int:
    """For each weight w of TUNE_WEIGHTS, grade the solved deals of the range by
    quartiles of ``score + w * positions`` and print the player's win rate per
    quartile, the smallest gap between neighbouring quartiles, and the AUC of
    the difficulty as a predictor of the player's loss (over all the deals, so
    less noisy than the quartiles): the weight with the largest AUC, over the
    games, orders the deals most as the player finds them."""
    for path in args.files:
        records = [r for r in read_lines(path)
                   if r.get("verdict") == "solved" and _in_span(r, args.deals)]
        if not records:
            raise BakersDozenError(f"{path}: no rated (solved) deal in the range")
        games = {r["game"] for r in records}
        if len(games) != 1:
            raise BakersDozenError(f"{path}: deals of several games: {sorted(games)}")
        (game,) = games
        tasks = [(game, r["deal"], args.seed, "rollouts", args.rollouts) for r in records]
        won = dict(pool_map(play_deal, tasks, args.jobs))
        print(f"{game}: {len(records)} deals, the player won {sum(won.values())} "
              f"({100 * sum(won.values()) / len(records):.1f} %)")
        print("| weight | easy | medium | hard | expert | smallest gap | AUC |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for weight in TUNE_WEIGHTS:
            ranked = sorted(records, key=lambda r: (r["score"] + weight * r["positions"], r["deal"]))
            rates = []
            for q in range(4):
                part = ranked[q * len(ranked) // 4:(q + 1) * len(ranked) // 4]
                rates.append(100 * sum(won[r["deal"]] for r in part) / len(part))
            gap = min(rates[q] - rates[q + 1] for q in range(3))
            area = auc([r["score"] + weight * r["positions"] for r in records],
                       [not won[r["deal"]] for r in records])
            print(f"| {weight} | " + " | ".join(f"{x:.1f} %" for x in rates)
                  + f" | {gap:.1f} | {area:.3f} |")
    return 0


def command_publish(args: argparse.Namespace) -> int:
    """Write the grades of a rating file into the game's published table and
    tables/grades.json: the cut-points (quartiles of the difficulties of the range)
    and, for each rated deal of the range, its grade in the table's last column."""
    import gzip
    import io

    records = [r for r in read_lines(args.file) if _in_span(r, args.deals)]
    games = {r["game"] for r in records}
    if len(games) != 1:
        raise BakersDozenError(f"{args.file}: not the deals of one game: {sorted(games)}")
    (game,) = games
    numbers = {r["deal"] for r in records}
    first, last = args.deals
    missing = [n for n in range(first, last + 1) if n not in numbers]
    if missing:
        raise BakersDozenError(f"{args.file}: {len(missing)} deals of {first}-{last} not rated "
                               f"(first {missing[:5]})")
    budgets = {(r["line_nodes"], r["shortest_nodes"], r["move_nodes"]) for r in records}
    if len(budgets) != 1:
        raise BakersDozenError(f"{args.file}: ratings made with several budgets: {budgets}")
    line_nodes, shortest_nodes, move_nodes = budgets.pop()
    solved = [r for r in records if r["verdict"] == "solved"]
    values = [difficulty(r) for r in solved]
    cuts = [percentile(values, p) for p in (25, 50, 75)]
    grades = {r["deal"]: grade_of(difficulty(r), cuts) for r in solved}
    table_path = os.path.join(args.tables, f"{game}.csv.gz")
    with gzip.open(table_path, "rt", encoding="ascii") as handle:
        lines = handle.read().splitlines()
    if lines[0] != "deal,verdict,positions,seconds,length,difficulty":
        raise BakersDozenError(f"{table_path}: not a published table with a difficulty column")
    out = io.StringIO()
    out.write(lines[0] + "\n")
    conflicts = []
    for line in lines[1:]:
        fields = line.split(",")
        number = int(fields[0])
        grade = grades.get(number, "") if first <= number <= last else fields[5]
        if grade and fields[1] != "solved":
            conflicts.append(number)
        fields[5] = grade
        out.write(",".join(fields) + "\n")
    if conflicts:
        raise BakersDozenError(f"rated as solved but not solved in {table_path}: {conflicts[:10]}")
    with open(table_path, "wb") as raw, gzip.GzipFile(
            filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as handle:
        handle.write(out.getvalue().encode("ascii"))
    grades_path = os.path.join(args.tables, "grades.json")
    try:
        with open(grades_path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        data = {"format": 1, "games": {}}
    data["games"][game] = {
        "cuts": cuts, "deals": [first, last], "rated": len(solved),
        "line_bits": line_bits(PRESETS[game]),
        "line_nodes": line_nodes, "shortest_nodes": shortest_nodes, "move_nodes": move_nodes,
    }
    with open(grades_path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
        handle.write("\n")
    counts = {g: sum(1 for v in grades.values() if v == g) for g in GRADES}
    print(f"{game}: cut-points {cuts} over {len(solved)} solved deals of {first}-{last}; "
          f"grades {counts}; wrote {table_path} and {grades_path}")
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _game(text: str) -> str:
    if text not in PRESETS:
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; one of {', '.join(PRESETS)}")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="difficulty.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="rate deals, one JSON line each, resumable")
    run.add_argument("deals", metavar="A-B", help="PySol deal numbers, e.g. 1-10000")
    run.add_argument("--game", type=_game, required=True)
    run.add_argument("--output", required=True, metavar="FILE")
    run.add_argument("--jobs", type=_positive, default=1)
    run.add_argument("--line-nodes", type=_positive, default=DEFAULT_LINE_NODES)
    run.add_argument("--move-nodes", type=_positive, default=DEFAULT_MOVE_NODES)
    run.add_argument("--shortest-nodes", type=_positive, default=DEFAULT_SHORTEST_NODES)
    pack = sub.add_parser("pack", help="merge ratings into a gzipped file, without lines")
    pack.add_argument("file", metavar="FILE")
    pack.add_argument("--output", required=True, metavar="RATINGS.jsonl.gz")
    cuts = sub.add_parser("cuts", help="quartile cut-points of the difficulties")
    cuts.add_argument("files", nargs="+", metavar="FILE")
    cuts.add_argument("--deals", type=_span, metavar="A-B", help="only these deals")
    cuts.add_argument("--json", action="store_true")
    tune = sub.add_parser("tune", help="the player's win rate per quartile for each line weight")
    tune.add_argument("files", nargs="+", metavar="FILE")
    tune.add_argument("--deals", type=_span, metavar="A-B", help="only these deals (the tuning set)")
    tune.add_argument("--rollouts", type=_positive, default=None,
                      help="playouts per move (default: the game's PLAYER_ROLLOUTS)")
    tune.add_argument("--seed", type=int, default=0)
    tune.add_argument("--jobs", type=_positive, default=1)
    publish = sub.add_parser("publish", help="write the grades into the published table")
    publish.add_argument("file", metavar="FILE")
    publish.add_argument("--deals", type=_span, required=True, metavar="A-B")
    publish.add_argument("--tables", required=True, metavar="DIR",
                         help="the tables directory, src/bakersdozen/tables")
    validate = sub.add_parser("validate", help="the player's win rate per grade")
    validate.add_argument("file", metavar="FILE")
    validate.add_argument("--cuts", required=True, metavar="CUTS.json")
    validate.add_argument("--per-grade", type=_positive, default=1000)
    validate.add_argument("--player", choices=("rollouts", "greedy"), default="rollouts",
                          help="the Monte Carlo player (default) or the greedy one")
    validate.add_argument("--deals", type=_span, metavar="A-B",
                          help="only these deals (keep them apart from the tuning set)")
    validate.add_argument("--rollouts", type=_positive, default=None,
                          help="playouts per move (default: the game's PLAYER_ROLLOUTS)")
    validate.add_argument("--playout-moves", type=_positive, default=None,
                          help="moves per playout (default: the game's PLAYER_PLAYOUT_MOVES, "
                               f"else {DEFAULT_PLAYOUT_MOVES})")
    validate.add_argument("--lookahead", type=_positive, default=DEFAULT_LOOKAHEAD,
                          help="of the greedy player")
    validate.add_argument("--seed", type=int, default=0)
    validate.add_argument("--jobs", type=_positive, default=1)
    validate.add_argument("--plays", metavar="FILE",
                          help="keep each game's result in this JSON-lines file and reuse "
                               "the results of the same player found there (resumable)")
    args = parser.parse_args(argv)
    try:
        return {"run": command_run, "pack": command_pack, "cuts": command_cuts,
                "tune": command_tune,
                "validate": command_validate, "publish": command_publish}[args.command](args)
    except KeyboardInterrupt:
        print(f"difficulty.py {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (BakersDozenError, OSError) as error:
        print(f"difficulty.py {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
