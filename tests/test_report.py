"""``bakersdozen report``: the HTML page of a survey, checked against counts made here.

The survey is a real one (``bakersdozen survey`` on a few deals with a small
node limit, so that every verdict occurs, then a retry that decides one of
the unknowns: the file holds two records of that deal and the later one must
win).  The expected counts, the Wilson interval and the lists of deals are
computed in this file from the JSON lines themselves, with their own
formula, not with :mod:`bakersdozen.stats`.  The published-table form
(gzip'd CSV of ``results/``) is read too.
"""

from __future__ import annotations

import base64
import csv
import gzip
import json
import math
import re
import struct
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bakersdozen import Deal, Move, check
from bakersdozen.cli import main
from bakersdozen.records import Record
from bakersdozen.solution import Verdict

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
#: 64 and 477 are lost as dealt; at 400 positions some deals stay unknown.
DEALS = "1-40,64,477"
RETRIED = 2  # unknown at 400 positions, solved at 5000


class _Page(HTMLParser):
    """The parts of the report a reader sees: table rows by table id, images, all URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[dict[str, str]] = []
        self.urls: list[str] = []
        self.tags: set[str] = set()
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        for name in ("src", "href", "srcset", "action", "data", "poster"):
            if name in values:
                self.urls.append(values[name])
        if tag == "table":
            self._table = values.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "img":
            self.images.append(values)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, as the roots of its quadratic in p (Wilson 1927)."""
    z = 1.959963984540054  # the 0.975 quantile of the standard normal
    # n (p_hat - p)^2 = z^2 p (1 - p)  <=>  (n + z^2) p^2 - (2 s + z^2) p + s^2 / n = 0
    a, b, c = n + z * z, -(2 * successes + z * z), successes * successes / n
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "small.jsonl"
    common = ["--time-limit", "none", "--jobs", "1", "--moves", "--output", str(path)]
    assert main(["survey", DEALS, "--max-nodes", "400", *common]) == 0
    assert main(["survey", str(RETRIED), "--retry-unknown", "--max-nodes", "5000", *common]) == 0
    return path


def _latest(path: Path) -> dict[int, dict[str, object]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    final = {}
    for line in lines:
        final[line["deal"]] = line  # the later record of a deal wins
    return final


def test_the_survey_has_every_verdict_and_its_wins_replay(survey: Path) -> None:
    final = _latest(survey)
    lines = survey.read_text().splitlines()
    assert sum(json.loads(line)["deal"] == RETRIED for line in lines) == 2
    assert final[RETRIED]["verdict"] == "solved"
    verdicts = {line["verdict"] for line in final.values()}
    assert verdicts == {"solved", "unsolvable", "unknown"}
    for deal, line in final.items():
        if line["verdict"] == "solved":
            moves = [Move.from_text(f"{m['card']} {m['source']}>{'F' if m['target'] == 'foundation' else m['target']}")
                     for m in line["moves"]]
            assert check(Deal.pysol(deal), moves).won, deal


def test_counts_interval_and_lists(survey: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(survey), "--html", str(out)]) == 0
    final = _latest(survey)
    solved = sum(line["verdict"] == "solved" for line in final.values())
    unsolvable = sorted(d for d, line in final.items() if line["verdict"] == "unsolvable")
    unknown = sorted(d for d, line in final.items() if line["verdict"] == "unknown")
    decided = solved + len(unsolvable)
    low, high = _wilson(solved, decided)
    page = _read(out)
    counts = dict((row[0], row[1]) for row in page.tables["counts"])
    assert counts["solved"] == f"{solved:,}"
    assert counts["unsolvable (proved)"] == f"{len(unsolvable):,}"
    assert counts["unknown"] == f"{len(unknown):,}"
    assert counts["total"] == f"{len(final):,}"
    assert counts[f"winnability over the {decided:,} decided deals"] == f"{100 * solved / decided:.2f} %"
    assert counts["95 % Wilson score interval"] == f"{100 * low:.2f} % to {100 * high:.2f} %"
    total = len(final)
    assert counts["winnability over all deals (unknowns unsolvable … solvable)"] == (
        f"{100 * solved / total:.2f} % to {100 * (solved + len(unknown)) / total:.2f} %")
    # The deals, with the reason each record gives.
    listed_unsolvable = {int(row[0]): row[1] for row in page.tables["unsolvable"][1:]}
    listed_unknown = {int(row[0]): row[1] for row in page.tables["unknown"][1:]}
    assert sorted(listed_unsolvable) == unsolvable and {64, 477} <= set(unsolvable)
    assert sorted(listed_unknown) == unknown and RETRIED not in unknown and unknown
    for deal in (64, 477):
        cards = " ".join(final[deal]["deadlock"])  # type: ignore[arg-type]
        assert listed_unsolvable[deal] == f"lost as dealt: {cards} can never move"
    for deal in unknown:
        assert final[deal]["reason"] == "max_nodes"
        assert listed_unknown[deal] == "node limit (400 positions)"
    for row in page.tables["unknown"][1:]:
        assert row[2] == f"{final[int(row[0])]['nodes']:,}"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_self_contained(survey: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(survey), "--html", str(out), "--title", "a <b> & c"]) == 0
    text = out.read_text(encoding="utf-8")
    page = _read(out)
    assert not re.search(r"(?i)https?:|ftp:|wss?:|//[a-z0-9.-]+\.[a-z]", text.replace(
        "&lt;", "<")), "a URL to another host"
    assert not re.search(r"(?i)@import|url\(", text)
    assert not page.tags & {"script", "link", "iframe", "object", "embed", "base", "video",
                            "audio", "source"}
    assert all(url.startswith("data:image/png;base64,") for url in page.urls)
    assert [image.get("alt", "") != "" for image in page.images] == [True, True, True]
    for image in page.images:
        data = base64.b64decode(image["src"].split(",", 1)[1], validate=True)
        assert _png_size(data) == (int(image["width"]), int(image["height"]))
    assert "<title>a &lt;b&gt; &amp; c</title>" in text
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', text)
    assert policy and policy.group(1).startswith("default-src 'none'; img-src data:;")


def _write_table(path: Path, rows: list[tuple[int, str, int, float, str]]) -> None:
    with gzip.open(path, "wt", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["deal", "verdict", "positions", "seconds", "length"])
        writer.writerows(rows)


def test_a_published_table_gzipped(tmp_path: Path) -> None:
    from bakersdozen.survey import read_records

    path = tmp_path / "good_measure_1-5.csv.gz"
    _write_table(path, [(1, "unsolvable", 0, 0.001, ""), (2, "solved", 1949, 0.006, "115"),
                        (3, "unknown", 20000000, 9.5, ""), (4, "solved", 10, 0.001, "98"),
                        (5, "unsolvable", 812, 0.01, "")])
    records = read_records(str(path))
    assert [(r.deal, r.verdict, r.nodes, r.length, r.game) for r in records][:3] == [
        (1, Verdict.UNSOLVABLE, 0, None, "good_measure"),
        (2, Verdict.SOLVED, 1949, 115, "good_measure"),
        (3, Verdict.UNKNOWN, 20000000, None, "good_measure"),
    ]
    out = tmp_path / "gm.html"
    assert main(["report", str(path), "--html", str(out)]) == 0
    page = _read(out)
    assert "good_measure" in out.read_text(encoding="utf-8")
    assert {int(r[0]): r[1] for r in page.tables["unsolvable"][1:]} == {
        1: "proved at the deal, before any search (0 positions)",
        5: "no winning line: every reachable position searched",
    }
    assert page.tables["unknown"][1:] == [["3", "stopped by a limit the file does not record", "20,000,000", "9.500"]]
    low, high = _wilson(2, 4)
    assert dict(page.tables["counts"])["95 % Wilson score interval"] == (
        f"{100 * low:.2f} % to {100 * high:.2f} %")
    # the same rows as plain CSV (no gzip), and a game the name does not give
    plain = tmp_path / "mine.csv"
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    assert [r.game for r in read_records(str(plain))] == ["bakers_dozen"] * 5


def test_the_shipped_table(tmp_path: Path) -> None:
    table = ROOT / "src" / "bakersdozen" / "tables" / "bakers_dozen.csv.gz"
    if not table.exists():
        pytest.skip(f"{table} is not in this checkout")
    with gzip.open(table, "rt", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = tmp_path / "bd.html"
    assert main(["report", str(table), "--html", str(out)]) == 0
    page = _read(out)
    counts = dict(page.tables["counts"])
    for verdict, label in (("solved", "solved"), ("unsolvable", "unsolvable (proved)"),
                           ("unknown", "unknown")):
        assert counts[label] == f"{sum(r['verdict'] == verdict for r in rows):,}"
    assert [int(r[0]) for r in page.tables["unknown"][1:]] == [
        int(r["deal"]) for r in rows if r["verdict"] == "unknown"]


def test_survival_curve() -> None:
    from bakersdozen.report import survival

    def record(deal: int, verdict: str, nodes: int) -> Record:
        return Record(deal, Verdict(verdict), "max_nodes" if verdict == "unknown" else None,
                      0.0, nodes, 1 if verdict == "solved" else None)

    records = [record(1, "solved", 10), record(2, "unsolvable", 0), record(3, "solved", 10),
               record(4, "unknown", 50), record(5, "solved", 1000)]
    assert survival(records) == ([0, 10, 1000], [0.8, 0.4, 0.2])
    assert survival([record(1, "unknown", 5)]) == ([], [])


# -- errors ------------------------------------------------------------------------


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bakersdozen report: error: "), err
    return err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jsonl"
    err = _fails(["report", str(missing), "--html", str(tmp_path / "r.html")], capsys)
    assert f"{missing}: cannot read: No such file or directory" in err
    assert not (tmp_path / "r.html").exists()


def test_empty_survey(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    err = _fails(["report", str(empty), "--html", str(tmp_path / "r.html")], capsys)
    assert f"{empty}: no records: nothing to draw" in err
    header_only = tmp_path / "empty.csv"
    header_only.write_text("deal,verdict,positions,seconds,length\n")
    assert "no records" in _fails(["report", str(header_only), "--html", str(tmp_path / "r.html")],
                                  capsys)
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("bad.jsonl", b'{"deal":1,"game":"bakers_dozen","verdict":"solved","reason":null,'
     b'"seconds":0.1,"nodes":5,"length":80}\nnot json\n', "bad.jsonl: line 2:"),
    ("bad.csv", b"deal,colour\n1,red\n", "bad.csv: line 1: header 'deal,colour' is not a survey's"),
    # mtime=0: the same bytes, so the same test ids, in every xdist worker
    ("bad.csv.gz",
     gzip.compress(b"deal,verdict,positions,seconds,length\n1,won,3,0.1,\n", mtime=0),
     "bad.csv.gz: line 2: not a record"),
    ("cut.csv.gz", gzip.compress(b"deal,verdict,positions,seconds,length\n" * 50, mtime=0)[:-12],
     "cut.csv.gz: not a complete gzip file"),
    ("survey.txt", b"", "cannot tell the format from the suffix '.txt'"),
    # json.loads raises RecursionError on deep nesting: a traceback before
    ("deep.jsonl", b"[" * 100_000 + b"\n", "deep.jsonl: line 1: JSON nested too deeply"),
    ("deep.csv", b"deal,game,verdict,reason,seconds,nodes,length,time_limit,max_nodes,"
     b"memory_mb,seed,method,optimal,lower_bound,deadlock,moves\n"
     b'1,bakers_dozen,solved,,0.1,117,85,10.0,,512.0,0,dfs,false,64,,"' + b"[" * 100_000
     + b'"\n', "deep.csv: line 2: not a record (JSON nested too deeply)"),
    # the csv module's field limit (131072 characters) raised csv.Error: a traceback
    ("big.csv", b"deal,game,verdict,reason,seconds,nodes,length,time_limit,max_nodes,"
     b"memory_mb,seed,method,optimal,lower_bound,deadlock,moves\n"
     b'1,bakers_dozen,solved,,0.1,117,85,10.0,,512.0,0,dfs,false,64,,"' + b"x" * 200_000
     + b'"\n', "big.csv: line 2: not CSV: field larger than field limit"),
])
def test_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes,
                   expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert expected in _fails(["report", str(path), "--html", str(tmp_path / "r.html")], capsys)


def test_output_cannot_be_written(survey: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(["report", str(survey), "--html", str(tmp_path / "no" / "r.html")], capsys)
    assert "No such file or directory" in err


def test_without_matplotlib(survey: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends",
                 "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    err = _fails(["report", str(survey), "--html", str(tmp_path / "r.html")], capsys)
    assert err == ("bakersdozen report: error: drawing a report needs matplotlib: "
                   "pip install 'bakersdozen[report]'\n")
    assert not (tmp_path / "r.html").exists()


def test_matplotlib_is_imported_only_to_draw() -> None:
    code = ("import sys; import bakersdozen.cli.report, bakersdozen.report; "
            "from bakersdozen.cli import main; main(['report', '--help']); "
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert "usage: bakersdozen report" in done.stdout
    assert not [m for m in done.stderr.split() if m.startswith("matplotlib")]


def test_png_files_are_the_page_figures(survey: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "page.html"
    prefix = tmp_path / "fig"
    assert main(["report", str(survey), "--html", str(out), "--png", str(prefix)]) == 0
    embedded = {image["src"].split(",", 1)[1] for image in _read(out).images}
    written = {base64.b64encode((tmp_path / f"fig-{name}.png").read_bytes()).decode()
               for name in ("verdicts", "effort", "lengths")}
    assert written == embedded and len(written) == 3
    assert main(["report", str(survey), "--png", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again-effort.png").read_bytes() == (tmp_path / "fig-effort.png").read_bytes()
    assert "give --html FILE, --png PREFIX or both" in _fails(["report", str(survey)], capsys)


def test_summary_reads_a_gzipped_survey(survey: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    packed = tmp_path / "small.jsonl.gz"
    packed.write_bytes(gzip.compress(survey.read_bytes()))
    assert main(["survey", "--summary", str(survey)]) == 0
    plain = capsys.readouterr().out
    assert main(["survey", "--summary", str(packed)]) == 0
    assert capsys.readouterr().out == plain.replace(str(survey), str(packed), 1)


def _records(*specs: tuple[object, str, int]) -> list[Record]:
    return [Record(deal, Verdict(verdict), "time_limit" if verdict == "unknown" else None, 0.5,
                   nodes, 90 if verdict == "solved" else None, time_limit=10.0)
            for deal, verdict, nodes in specs]


@pytest.mark.parametrize("records", [
    _records((1, "unknown", 300), (2, "unknown", 0)),
    _records((1, "solved", 0)),
    _records(("board-0123456789abcdef", "unsolvable", 5), (7, "solved", 10**9)),
], ids=["only-unknown", "one-solved-at-once", "board-id-and-a-billion"])
def test_edge_surveys_draw(records: list[Record]) -> None:
    from bakersdozen.report import report_html

    page = _Page()
    page.feed(report_html(records, title="edge"))
    counts = dict(page.tables["counts"])
    solved = sum(r.verdict is Verdict.SOLVED for r in records)
    decided = sum(r.verdict is not Verdict.UNKNOWN for r in records)
    assert counts["solved"] == str(solved) and counts["total"] == str(len(records))
    if decided:
        low, high = _wilson(solved, decided)
        assert counts["95 % Wilson score interval"] == f"{100 * low:.2f} % to {100 * high:.2f} %"
    else:
        assert counts["winnability"] == "no deal decided"
    assert len(page.images) == 3
    unknown = [str(r.deal) for r in records if r.verdict is Verdict.UNKNOWN]
    assert [row[0] for row in page.tables.get("unknown", [[]])[1:]] == unknown
    if unknown:
        assert {row[1] for row in page.tables["unknown"][1:]} == {"time limit (10 s)"}


def test_report_html_refuses_what_is_not_a_record() -> None:
    from bakersdozen.errors import BakersDozenError
    from bakersdozen.report import report_html

    with pytest.raises(TypeError, match="needs Records"):
        report_html([{"deal": 1}])  # type: ignore[list-item]
    with pytest.raises(BakersDozenError, match="no records"):
        report_html([])
    with pytest.raises(TypeError, match="title must be a str"):
        report_html(_records((1, "solved", 5)), title=3)  # type: ignore[arg-type]
