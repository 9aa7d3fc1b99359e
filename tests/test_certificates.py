"""Certificates of unsolvable deals (docs/certificates.md).

- The lemmas the verifier trusts, by brute force on reduced packs: on every
  position reachable with every legal move, a position dead by the deadlock
  lemma cannot be won, and a winnable position keeps a successor under the
  lemma-restricted moves that is nearer a win; so winnability with every
  legal move equals winnability with the restricted moves.
- No certificate is accepted for a winnable deal, whatever set is offered.
- Certificates written for unsolvable deals are valid; tampered ones are
  caught, each with the first thing wrong.
"""

from __future__ import annotations

import json
import lzma
import random
from collections import deque
from pathlib import Path

import pytest

from bakersdozen import Card, Deal, Suit, verify_certificate
from bakersdozen.certificate import write_certificate
from bakersdozen.errors import BakersDozenError
from bakersdozen.rules import GOOD_MEASURE, SPANISH_PATIENCE, RulesError
from bakersdozen.verify import (
    COUNT_BYTES, END, MAGIC, deadlock, frame_of, is_deadlock, is_won, safe_move, start_position,
    successors,
)
from brute import _successors, brute_force_solvable, reachable, win_distances
from reference import family_deal, pack
from test_solver import reduced_deal


def _mine(position):  # brute's (rank, suit) columns to the verifier's card indices
    cols, found = position
    return tuple(tuple(4 * (r - 1) + s for r, s in col) for col in cols), tuple(found)


def _restricted_winnable(deal: Deal) -> bool:
    """Is a won position reachable by the lemma-restricted moves, never entering a dead one?"""
    start = start_position(deal)
    seen = {start}
    queue = deque([start])
    while queue:
        position = queue.popleft()
        if is_won(position):
            return True
        if deadlock(position, deal.ranks):
            continue
        for *_, nxt in successors(position):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def _sample_deals(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    deals = []
    for i in range(count):
        ranks = rng.choice((3, 4, 4, 4))
        if i % 4 == 3:  # Good Measure's layout: Aces home, no Kings rule
            cards = pack(ranks)
            rng.shuffle(cards)
            deals.append(family_deal(cards, ranks, GOOD_MEASURE))
        else:
            deals.append(reduced_deal(rng, ranks, rng.choice((3, 4, 5)), home=rng.choice((0, 0, 1))))
    return deals


DEALS = _sample_deals(24, 2026)


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d.ranks}x{len(d.columns)}")
def test_lemmas_keep_a_nearer_win_and_dead_positions_are_lost(deal: Deal) -> None:
    dist = {_mine(p): d for p, d in win_distances(deal).items()}
    for raw in reachable(deal):
        position = _mine(raw)
        dead = deadlock(position, deal.ranks)
        if dead:
            # lemma 3: a deadlocked position cannot be won
            assert position not in dist, (position, dead)
        if position not in dist or dist[position] == 0:
            continue
        kept = [nxt for *_, nxt in successors(position)]
        # lemmas 1 and 2: some kept move leads nearer a win ...
        assert any(dist.get(nxt, 1 << 30) < dist[position] for nxt in kept), position
        # ... and lemma 1's move alone does, whenever it applies
        if safe_move(position) is not None:
            assert len(kept) == 1 and dist.get(kept[0], 1 << 30) < dist[position]
        # the kept moves are legal moves
        legal = {_mine(p) for p in _successors(raw)}
        assert set(kept) <= legal


def test_restricted_winnability_equals_winnability() -> None:
    verdicts = []
    for deal in DEALS + _sample_deals(40, 7):
        full = brute_force_solvable(deal)
        assert _restricted_winnable(deal) == full
        verdicts.append(full)
    assert True in verdicts and False in verdicts  # both verdicts occur


# -- writing a certificate from any set of positions ----------------------------

def _write_raw(path: Path, deal: Deal, positions, *, header_changes=None, body_hook=None,
               positions_count=None) -> None:
    """A certificate of the given positions (in the verifier's form), grouped by layer."""
    frame = frame_of(deal)
    layers: dict[bytes, list[bytes]] = {}
    for position in positions:
        key, rec = frame.encode(position)
        layers.setdefault(key, []).append(rec)
    body = b""
    n = 0
    for key in sorted(layers, key=frame.order):
        records = sorted(set(layers[key]))
        n += len(records)
        body += key + len(records).to_bytes(COUNT_BYTES, "big") + b"".join(records)
    body += END + n.to_bytes(8, "big")
    if body_hook:
        body = body_hook(body)
    header = {
        "format": 1, "game": deal.rules.name,
        "knobs": json.loads(path.with_suffix(".knobs").read_text())
        if path.with_suffix(".knobs").exists() else None,
        "deal": {"columns": [" ".join(map(str, c)) for c in deal.columns],
                 "foundations": list(deal.foundations), "ranks": deal.ranks},
        "lemmas": ["safe-foundation", "lone-card", "deadlock"],
        "positions": n if positions_count is None else positions_count,
        "layers": len(layers), "start": "member", "compression": "lzma",
    }
    from bakersdozen.verify import rules_knobs

    header["knobs"] = rules_knobs(deal.rules)
    header.update(header_changes or {})
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n"
                     + lzma.compress(body, format=lzma.FORMAT_XZ))


def _closure(deal: Deal) -> set:
    """The non-dead positions reachable by the restricted moves (a writer's set)."""
    start = start_position(deal)
    seen = {start}
    queue = deque([start])
    out = set()
    while queue:
        position = queue.popleft()
        if deadlock(position, deal.ranks):
            continue
        out.add(position)
        for *_, nxt in successors(position):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return out


def test_no_certificate_for_a_winnable_deal(tmp_path: Path) -> None:
    # Any certificate holds the deal and, being closed, every non-dead position
    # the restricted moves reach from it, a won one among them (lemmas tested
    # above).  Offer the largest such set without its won positions, and
    # random parts of it: all are rejected.
    rng = random.Random(5)
    winnable = [d for d in DEALS if brute_force_solvable(d)][:8]
    assert len(winnable) == 8
    path = tmp_path / "c.cert"
    for deal in winnable:
        with pytest.raises(BakersDozenError, match="can be won"):
            write_certificate(deal, path)
        everything = _closure(deal)
        unwon = [p for p in everything if not is_won(p)]
        offers = [everything, set(unwon)] + [
            set(rng.sample(unwon, rng.randint(0, len(unwon)))) for _ in range(5)]
        for offer in offers:
            _write_raw(path, deal, offer)
            report = verify_certificate(deal, path)
            assert not report.valid, offer
            assert report.error


@pytest.mark.parametrize("deal", [d for d in DEALS if not brute_force_solvable(d)][:6],
                         ids=lambda d: f"{d.ranks}x{len(d.columns)}")
def test_writer_certifies_unwinnable_reduced_deals(deal: Deal, tmp_path: Path) -> None:
    stats = write_certificate(deal, tmp_path / "c.cert")
    report = verify_certificate(deal, tmp_path / "c.cert")
    assert report.valid, report.error
    assert report.positions == stats.positions


# -- PySol deals and tampering ---------------------------------------------------

@pytest.fixture(scope="module")
def cert3266(tmp_path_factory: pytest.TempPathFactory) -> tuple[Deal, Path]:
    deal = Deal.pysol(3266)
    path = tmp_path_factory.mktemp("cert") / "3266.cert"
    stats = write_certificate(deal, path)
    assert stats.positions + stats.dead == 6685  # the layered search's count
    return deal, path


def _members(deal: Deal, path: Path) -> list:
    """The positions of a certificate, decoded (test helper)."""
    data = path.read_bytes()
    body = lzma.decompress(data[data.index(b"\n", len(MAGIC)) + 1:])
    frame = frame_of(deal)
    out = []
    i = 0
    while body[i:i + 4] != END:
        key = body[i:i + frame.key_bytes]
        i += frame.key_bytes
        n = int.from_bytes(body[i:i + COUNT_BYTES], "big")
        i += COUNT_BYTES
        length = frame.record_length(key)
        for _ in range(n):
            out.append(frame.decode(key, body[i:i + length]))
            i += length
    return out


@pytest.mark.parametrize("number", [64, 477])
def test_lost_as_dealt_needs_the_deadlock_set(number: int, tmp_path: Path) -> None:
    deal = Deal.pysol(number)
    stats = write_certificate(deal, tmp_path / "c.cert")
    assert stats.positions == 0
    header = json.loads((tmp_path / "c.cert").read_bytes().split(b"\n")[1])
    assert header["start"] == "dead" and header["deadlock"]
    assert verify_certificate(deal, tmp_path / "c.cert").valid
    # with an Ace added (no lower card of its suit) the cards are not a deadlocked set
    header["deadlock"] = header["deadlock"] + ["AS"]
    (tmp_path / "d.cert").write_bytes(MAGIC + json.dumps(header).encode() + b"\n")
    report = verify_certificate(deal, tmp_path / "d.cert")
    assert not report.valid and "not a deadlocked set" in report.error


def test_3266_is_valid_and_round_trips(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    report = verify_certificate(deal, path)
    assert report.valid, report.error
    members = _members(deal, path)
    assert len(members) == report.positions == 3083
    # streamed: never the whole set in memory at once
    assert 0 < report.peak_positions < report.positions
    # written again from its own members: the same verdict
    _write_raw(tmp_path / "again.cert", deal, members)
    assert verify_certificate(deal, tmp_path / "again.cert").valid


def test_a_member_removed_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    members = _members(deal, path)
    start = start_position(deal)
    rng = random.Random(1)
    for victim in [start] + rng.sample(members, 3):
        _write_raw(tmp_path / "t.cert", deal, [p for p in members if p != victim])
        report = verify_certificate(deal, tmp_path / "t.cert")
        assert not report.valid
        assert "a successor is missing" in report.error
        assert report.offset is not None


def test_a_successor_missing_names_the_move(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    members = _members(deal, path)
    # drop the whole last layer but one: its positions are successors of earlier ones
    frame = frame_of(deal)
    keys = sorted({frame.encode(p)[0] for p in members}, key=frame.order)
    gone = keys[len(keys) // 2]
    _write_raw(tmp_path / "t.cert", deal, [p for p in members if frame.encode(p)[0] != gone])
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid
    assert "a successor is missing" in report.error and " from the position at body offset " \
        in report.error


def test_a_won_position_added_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    members = _members(deal, path)
    won = (tuple(() for _ in deal.columns), (13, 13, 13, 13))
    _write_raw(tmp_path / "t.cert", deal, members + [won])
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid and "is won" in report.error


def test_a_certificate_for_another_deal_is_refused(cert3266: tuple[Deal, Path]) -> None:
    _, path = cert3266
    report = verify_certificate(Deal.pysol(5143), path)
    assert not report.valid and "another deal" in report.error
    assert report.offset == len(MAGIC)


def test_a_truncated_file_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    data = path.read_bytes()
    for cut in (len(data) - 1, len(data) // 2, len(MAGIC) + 10):
        (tmp_path / "t.cert").write_bytes(data[:cut])
        report = verify_certificate(deal, tmp_path / "t.cert")
        assert not report.valid and ("truncated" in report.error or "cut short" in report.error)


def test_a_block_cut_short_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    members = _members(deal, path)
    # a well-formed compressed stream whose body stops inside a block
    _write_raw(tmp_path / "t.cert", deal, members, body_hook=lambda b: b[:len(b) // 2])
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid and "truncated" in report.error


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "format 2"),
        ({"game": "good_measure"}, "the certificate is for 'good_measure'"),
        ({"lemmas": ["safe-foundation", "lone-card", "deadlock", "magic"]}, "lemmas"),
        ({"lemmas": ["safe-foundation", "deadlock"]}, "uses the lemmas"),
        ({"positions": 5}, "the header says 5 positions"),
        ({"layers": 5}, "the header says 5 layers"),
        ({"layers": -1}, "the header's layer count -1 is not a count"),
        ({"layers": "66"}, "the header's layer count '66' is not a count"),
        ({"compression": "zip"}, "unknown compression"),
        ({"deal": {"columns": ["AS"], "foundations": [0, 0, 0, 0], "ranks": 13}}, "another deal"),
    ],
)
def test_a_wrong_header_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path, change: dict,
                                  message: str) -> None:
    deal, path = cert3266
    _write_raw(tmp_path / "t.cert", deal, _members(deal, path), header_changes=change)
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid and message in report.error, report.error


def test_not_a_certificate(tmp_path: Path) -> None:
    (tmp_path / "t.cert").write_bytes(b"hello\n")
    report = verify_certificate(Deal.pysol(3266), tmp_path / "t.cert")
    assert not report.valid and "not a certificate" in report.error and report.offset == 0


def test_a_non_canonical_record_is_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    data = path.read_bytes()
    cut = data.index(b"\n", len(MAGIC)) + 1
    body = bytearray(lzma.decompress(data[cut:]))
    frame = frame_of(deal)
    # the first record's sentinel bit cleared: it no longer holds its moved cards
    at = frame.key_bytes + COUNT_BYTES
    body[at] = 0
    (tmp_path / "t.cert").write_bytes(data[:cut] + lzma.compress(bytes(body)))
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid and f"body offset {at}" in report.error


def test_good_measure_deal(tmp_path: Path) -> None:
    deal = Deal.pysol(14, game="good_measure")
    stats = write_certificate(deal, tmp_path / "c.cert")
    report = verify_certificate(deal, tmp_path / "c.cert")
    assert report.valid, report.error
    assert report.positions == stats.positions > 0
    # the same file does not prove the Baker's Dozen deal of that number
    assert not verify_certificate(Deal.pysol(14), tmp_path / "c.cert").valid


def test_other_rules_are_refused(tmp_path: Path) -> None:
    deal = Deal.pysol(3266, game=SPANISH_PATIENCE)
    with pytest.raises(RulesError, match="Baker's Dozen's play only"):
        verify_certificate(deal, tmp_path / "none.cert")
    with pytest.raises(RulesError, match="foundation_build=alternate_colours"):
        write_certificate(deal, tmp_path / "none.cert")


def test_deadlock_is_the_engines_set_and_a_deadlocked_set() -> None:
    # The verifier's greatest set, on every position reachable in the sample,
    # equals the engine's (bakersdozen.deadlock), and satisfies the definition.
    from bakersdozen import deadlock as engine_deadlock

    checked = found = 0
    for deal in DEALS[:12]:
        for raw in list(reachable(deal))[:400]:
            cols, fnd = raw
            position = Deal(tuple(tuple(Card(r, Suit(s)) for r, s in col) for col in cols),
                            fnd, deal.ranks, deal.rules)
            mine = deadlock(_mine(raw), deal.ranks)
            theirs = sum(1 << c.index for c in engine_deadlock(position))
            assert mine == theirs, raw
            if mine:
                found += 1
                assert is_deadlock(_mine(raw), deal.ranks, mine)
            checked += 1
    assert found and checked > found


SHIPPED = Path(__file__).resolve().parent.parent / "results" / "certificates"


@pytest.mark.parametrize(("game", "number", "searched"),
                         [("bakers_dozen", 477, False), ("bakers_dozen", 3266, True),
                          ("good_measure", 14, True)])
def test_shipped_certificates_verify(game: str, number: int, searched: bool) -> None:
    deal = Deal.pysol(number, game=game)
    report = verify_certificate(deal, SHIPPED / f"{game}-{number}.cert")
    assert report.valid, report.error
    assert (report.positions > 0) == searched
    # and each proves its own deal only
    other = Deal.pysol(number + 1, game=game)
    assert not verify_certificate(other, SHIPPED / f"{game}-{number}.cert").valid


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bakersdozen.cli import main

    cert = tmp_path / "5143.cert"
    assert main(["solve", "--deal", "5143", "--certificate", str(cert)]) == 1
    assert "certificate written" in capsys.readouterr().err
    assert main(["verify", "--deal", "5143", str(cert)]) == 0
    assert capsys.readouterr().out.startswith("valid: 1985 positions")
    board = tmp_path / "board.txt"
    assert main(["deal", "5143"]) == 0
    board.write_text(capsys.readouterr().out)
    assert main(["verify", str(board), str(cert)]) == 0
    capsys.readouterr()
    assert main(["verify", "--deal", "3266", str(cert)]) == 1
    assert capsys.readouterr().out.startswith("invalid: the certificate is for another deal")
    # a winnable deal: no certificate written, and a note says so
    assert main(["solve", "--deal", "1", "--certificate", str(tmp_path / "1.cert")]) == 0
    assert "no certificate written" in capsys.readouterr().err
    assert not (tmp_path / "1.cert").exists()
    # rules not covered, a missing argument: one line, exit 2
    assert main(["solve", "--deal", "1", "--game", "spanish_patience",
                 "--certificate", str(tmp_path / "x.cert")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakersdozen solve: error: certificates cover Baker's Dozen's play")
    assert err.count("\n") == 1
    assert main(["verify", str(cert)]) == 2
    assert "give a board file or --deal N" in capsys.readouterr().err


def test_solve_writes_a_certificate_only_when_unsolvable(tmp_path: Path) -> None:
    from bakersdozen import Verdict, solve

    solution = solve(Deal.pysol(2548), certificate=tmp_path / "c.cert")
    assert solution.verdict is Verdict.UNSOLVABLE
    assert verify_certificate(Deal.pysol(2548), tmp_path / "c.cert").valid
    assert solve(Deal.pysol(2), certificate=tmp_path / "d.cert").verdict is Verdict.SOLVED
    assert not (tmp_path / "d.cert").exists()
    with pytest.raises(TypeError, match="certificate must be a path"):
        solve(Deal.pysol(2548), certificate=3)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="Baker's Dozen's play only"):
        solve(Deal.pysol(2548), rules="spanish_patience", certificate=tmp_path / "e.cert")


def test_bytes_after_the_body_are_caught(cert3266: tuple[Deal, Path], tmp_path: Path) -> None:
    deal, path = cert3266
    (tmp_path / "t.cert").write_bytes(path.read_bytes() + b"\0")
    report = verify_certificate(deal, tmp_path / "t.cert")
    assert not report.valid and "bytes after the end" in report.error


@pytest.mark.parametrize(("game", "number"), [("bakers_dozen", 3266), ("bakers_dozen", 5143),
                                              ("bakers_dozen", 2548), ("good_measure", 14)])
def test_writer_meets_the_engines_layered_count(game: str, number: int, tmp_path: Path) -> None:
    # The writer (the verifier's successor relation) and the engine's layered
    # search (its own code) reach the same positions: live + dead = stored.
    from bakersdozen import _layers
    from bakersdozen.solver import _engine_args

    deal = Deal.pysol(number, game=game)
    stats = write_certificate(deal, tmp_path / "c.cert")
    status, _raw, _nodes, _rounds, stored = _layers.LayeredSearch(
        *_engine_args(deal), memory_mb=64).run()
    assert stats.positions + stats.dead == stored


def test_successor_forms_are_the_encodings_of_the_successors() -> None:
    # the verifier's incremental forms (only the changed columns looked at
    # again) equal the full encoding of each successor
    for deal in DEALS[:8] + [Deal.pysol(3266)]:
        frame = frame_of(deal)
        start = start_position(deal)
        seen = {start}
        queue = deque([start])
        while queue and len(seen) < 3000:
            position = queue.popleft()
            forms = frame.successor_forms(position)
            assert [(c, o, n) for c, o, *_, n in forms] == \
                [(c, o, n) for c, o, _, _, n in successors(position)]
            for _, _, key, wide, nxt in forms:
                assert (key, wide) == frame.encode_wide(nxt)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)


def test_written_files_have_the_usual_mode(tmp_path: Path) -> None:
    # as open() would make them (mkstemp alone gives 0600)
    import os
    import stat

    old = os.umask(0o022)
    try:
        for number in (477, 5143):  # a dead deal's file and a searched one
            write_certificate(Deal.pysol(number), tmp_path / f"{number}.cert")
            assert stat.S_IMODE(os.stat(tmp_path / f"{number}.cert").st_mode) == 0o644
    finally:
        os.umask(old)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".cert-")]


@pytest.mark.parametrize("number", [477, 5143])  # a dead deal's file and a searched one
def test_a_failed_write_names_the_certificate_not_its_temporary_file(
        number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a full disk fails on the temporary file beside the certificate; the
    # error must name the file the caller asked for (the command line prints it)
    import errno
    import os

    def full(src: str, dst: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), src)

    monkeypatch.setattr(os, "replace", full)
    target = tmp_path / f"{number}.cert"
    with pytest.raises(OSError) as failure:
        write_certificate(Deal.pysol(number), target)
    assert failure.value.filename == str(target)
    assert failure.value.errno == errno.ENOSPC
    assert not list(tmp_path.iterdir())


def test_a_header_nested_too_deep_is_invalid_not_a_crash(tmp_path: Path) -> None:
    # json.loads raises RecursionError (not a ValueError) on deep nesting:
    # 'bakersdozen verify' printed a traceback
    (tmp_path / "t.cert").write_bytes(MAGIC + b"[" * 100_000 + b"\n")
    report = verify_certificate(Deal.pysol(3266), tmp_path / "t.cert")
    assert not report.valid and "the header is not JSON" in report.error
    assert report.offset == len(MAGIC)
