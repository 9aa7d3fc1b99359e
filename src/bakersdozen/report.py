"""Pictures of a survey: one self-contained HTML page of its records.

:func:`report_html` draws, from the latest record of each deal
(:func:`bakersdozen.records.latest`):

- the **verdicts**: the counts of solved, unsolvable and unknown deals, and
  the winnability over the decided deals with its 95 % Wilson score
  interval (:func:`bakersdozen.stats.wilson_interval`; Wilson 1927,
  *J. Amer. Statist. Assoc.* 22:209-212) beside the bounds the unknowns
  leave open over all deals;
- the **search effort**: the share of all deals still undecided after x
  positions (x the record's ``nodes``, on a log scale): a survival curve
  whose heavy tail is the few deals that need millions of positions.  A
  decided deal leaves the curve at its ``nodes``; an unknown deal never
  does (its search stopped undecided), so the curve ends at the share of
  unknown deals;
- the **winning-line lengths**: a histogram over the solved deals;
- the **unsolvable and unknown deals**, listed in tables with what the
  record says of each: the cards that can never move for a deal lost as
  dealt, else the search that proved it; the limit that stopped an unknown.

The figures are drawn by matplotlib (``pip install 'bakersdozen[report]'``),
imported on the first call and used through its Agg canvas only (no pyplot,
no global backend switch), and inlined as base64 PNG ``data:`` images, so
the page is one file that loads nothing from anywhere: its
``Content-Security-Policy`` allows only its own style (by hash) and
``data:`` images.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ._page import HEAD, csp_hash, policy
from .errors import BakersDozenError
from .records import Record, deal_sort_key, latest
from .solution import Verdict
from .stats import Z_95, Summary, summarize

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["report_html", "report_figures", "require_matplotlib", "survival", "ReportFigure",
           "MATPLOTLIB_MISSING"]

#: The message of the error raised when matplotlib is not installed.
MATPLOTLIB_MISSING: Final = (
    "drawing a report needs matplotlib: pip install 'bakersdozen[report]'"
)
#: Dots per inch of the PNG figures (their size in inches is set per figure).
DPI: Final = 100
#: Colours of the verdicts (Okabe-Ito, readable by colour-blind readers).
_COLOURS: Final = {"solved": "#009E73", "unsolvable": "#D55E00", "unknown": "#999999"}


def require_matplotlib() -> None:
    """Import matplotlib's Agg canvas, or say which extra to install.

    Raises
    ------
    BakersDozenError
        If matplotlib cannot be imported (:data:`MATPLOTLIB_MISSING`).
    """
    try:
        import matplotlib.backends.backend_agg  # noqa: F401
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise BakersDozenError(MATPLOTLIB_MISSING) from None


@dataclass(frozen=True, slots=True)
class ReportFigure:
    """One figure of the report.

    Attributes
    ----------
    name : str
        Its id in the page: ``"verdicts"``, ``"effort"`` or ``"lengths"``.
    title : str
        The heading above it.
    alt : str
        Its text alternative: what it shows, in words and numbers.
    png : bytes
        The PNG image (no time or version in its metadata, so the same
        records give the same bytes with the same matplotlib).
    width, height : int
        Its size in pixels.
    """

    name: str
    title: str
    alt: str
    png: bytes
    width: int
    height: int


def survival(records: Iterable[Record]) -> tuple[list[int], list[float]]:
    """The share of deals still undecided after x positions, as a step curve.

    Parameters
    ----------
    records : iterable of Record
        One record per deal (pass :func:`~bakersdozen.records.latest`'s values).

    Returns
    -------
    xs : list of int
        Every distinct ``nodes`` of a decided deal, ascending (positions).
    shares : list of float
        ``shares[i]``: the fraction of all deals not decided within
        ``xs[i]`` positions (decided with more ``nodes``, or unknown), so
        the curve is ``1`` before ``xs[0]`` and ``shares[i]`` from ``xs[i]``
        up to the next x.  Both empty when no deal is decided.
    """
    final = list(records)
    total = len(final)
    decided = sorted(r.nodes for r in final if r.verdict is not Verdict.UNKNOWN)
    xs: list[int] = []
    shares: list[float] = []
    left = total
    for index, nodes in enumerate(decided):
        left -= 1
        if index + 1 < len(decided) and decided[index + 1] == nodes:
            continue
        xs.append(nodes)
        shares.append(left / total)
    return xs, shares


def _canvas(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _png(figure: Figure) -> tuple[bytes, int, int]:
    buffer = io.BytesIO()
    # No "Software" key: the bytes do not change with matplotlib's version string.
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    width, height = (round(v) for v in figure.get_size_inches() * DPI)
    return buffer.getvalue(), width, height


def _percent(value: float) -> str:
    return f"{100 * value:.2f} %"


def _share_label(value: float, _: object = None) -> str:
    percent = 100 * value
    if percent <= 0:
        return "0 %"
    if percent >= 1:
        return f"{percent:g} %"
    return f"{percent:.{max(0, -math.floor(math.log10(percent)))}f} %"


def _verdicts_figure(summary: Summary) -> ReportFigure:
    figure = _canvas(9.0, 3.0)
    counts_axes, rate_axes = figure.subplots(1, 2, width_ratios=(3, 2))
    names = ("solved", "unsolvable", "unknown")
    counts = (summary.solved, summary.unsolvable, summary.unknown)
    bars = counts_axes.barh(names, [max(c, 0) for c in counts],
                            color=[_COLOURS[n] for n in names])
    counts_axes.invert_yaxis()
    counts_axes.set_xscale("log")
    counts_axes.set_xlim(0.7, max(max(counts), 1) * 8)
    counts_axes.bar_label(bars, labels=[f"{c:,}" for c in counts], padding=4)
    counts_axes.set_xlabel("deals (log scale)")
    counts_axes.set_title(f"{summary.total:,} deals", fontsize="medium")
    if summary.winnability is None:
        rate_axes.set_axis_off()
        rate_axes.text(0.5, 0.5, "no deal decided", ha="center", va="center")
        alt_rate = "No deal was decided."
    else:
        low, high = summary.interval
        all_low, all_high = summary.bounds
        rate_axes.errorbar([summary.winnability * 100], [1],
                           xerr=[[100 * (summary.winnability - low)],
                                 [100 * (high - summary.winnability)]],
                           fmt="o", color="black", capsize=6)
        rate_axes.plot([100 * all_low, 100 * all_high], [0, 0], color=_COLOURS["unknown"],
                       linewidth=8, solid_capstyle="butt")
        rate_axes.set_yticks([1, 0], ["decided\n(95 % Wilson)", "all deals\n(bounds)"])
        rate_axes.set_ylim(-0.6, 1.6)
        left = min(low, all_low) * 100
        right = max(high, all_high) * 100
        margin = max((right - left) * 0.15, 0.05)
        rate_axes.set_xlim(max(0.0, left - margin), min(100.0, right + margin))
        rate_axes.xaxis.set_major_formatter(lambda value, _: f"{value:g} %")
        rate_axes.set_xlabel("winnability")
        rate_axes.set_title(f"{_percent(summary.winnability)} of {summary.decided:,} decided",
                            fontsize="medium")
        alt_rate = (
            f"Winnability over the {summary.decided} decided deals {_percent(summary.winnability)}, "
            f"95 % Wilson interval {_percent(low)} to {_percent(high)}; over all deals between "
            f"{_percent(all_low)} and {_percent(all_high)}."
        )
    png, width, height = _png(figure)
    alt = (f"Bar chart of the verdicts: {summary.solved} solved, {summary.unsolvable} "
           f"unsolvable, {summary.unknown} unknown. {alt_rate}")
    return ReportFigure("verdicts", "Verdicts", alt, png, width, height)


def _effort_figure(final: Sequence[Record]) -> ReportFigure:
    xs, shares = survival(final)
    total = len(final)
    unknown = sum(r.verdict is Verdict.UNKNOWN for r in final)
    figure = _canvas(9.0, 4.0)
    axes = figure.subplots()
    axes.set_xscale("log")
    axes.set_yscale("log")
    shown = [(x, s) for x, s in zip(xs, shares) if x >= 1]
    at_zero = sum(1 for r in final if r.verdict is not Verdict.UNKNOWN and r.nodes == 0)
    start = 1 - at_zero / total
    if shown:
        curve_x: list[float] = [1.0] + [float(x) for x, _ in shown]
        curve_y = [start] + [s for _, s in shown]
        last_x = max(curve_x[-1], max((r.nodes for r in final), default=1)) * 1.5
        curve_x.append(last_x)
        curve_y.append(curve_y[-1])
        positive = [(x, y) for x, y in zip(curve_x, curve_y) if y > 0]
        # A step curve: a deal decided at x leaves it at x.
        axes.step([x for x, _ in positive], [y for _, y in positive], where="post",
                  color="black", linewidth=1.5, label="undecided")
    if unknown:
        axes.axhline(unknown / total, color=_COLOURS["unknown"], linestyle="--", linewidth=1,
                     label=f"unknown at the end: {unknown:,} ({_share_label(unknown / total)})")
        for r in final:
            if r.verdict is Verdict.UNKNOWN and r.nodes >= 1:
                axes.plot([r.nodes], [unknown / total], marker="|", markersize=10,
                          color=_COLOURS["unknown"])
    axes.set_ylim(0.5 / total, 1.5)
    axes.set_xlim(left=1)
    axes.yaxis.set_major_formatter(_share_label)
    axes.yaxis.set_minor_formatter("")  # no 6x10^-1 on a short range
    axes.set_xlabel("positions searched (nodes, log scale)")
    axes.set_ylabel("share of deals undecided (log scale)")
    axes.grid(True, which="major", linewidth=0.5, alpha=0.5)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(loc="lower left")
    points = [(10**k, _undecided_after(final, 10**k)) for k in range(0, 10)]
    points = [(x, s) for x, s in points if x <= max((r.nodes for r in final), default=0)]
    spoken = "; ".join(f"after {x:,} positions {_share_label(s)}" for x, s in points)
    alt = (f"Share of the {total} deals still undecided against positions searched, both axes "
           f"logarithmic: {spoken or 'every deal was decided at once'}. {at_zero} deals were "
           f"decided without searching (0 positions); {unknown} remain unknown.")
    png, width, height = _png(figure)
    return ReportFigure("effort", "Search effort: the heavy tail", alt, png, width, height)


def _undecided_after(final: Sequence[Record], positions: int) -> float:
    left = sum(1 for r in final if r.verdict is Verdict.UNKNOWN or r.nodes > positions)
    return left / len(final)


def _lengths_figure(final: Sequence[Record]) -> ReportFigure:
    lengths = sorted(r.length for r in final if r.verdict is Verdict.SOLVED and r.length is not None)
    figure = _canvas(9.0, 3.5)
    axes = figure.subplots()
    if lengths:
        low, high = lengths[0], lengths[-1]
        width = max(1, math.ceil((high - low + 1) / 100))
        edges = list(range(low, high + width + 1, width))
        axes.hist(lengths, bins=[e - 0.5 for e in edges], color=_COLOURS["solved"])
        median = lengths[(len(lengths) - 1) // 2]
        axes.axvline(median, color="black", linestyle="--", linewidth=1,
                     label=f"median {median} moves")
        axes.axvline(high, color=_COLOURS["unknown"], linestyle=":", linewidth=1,
                     label=f"longest {high} moves")
        axes.legend(loc="upper right")
        axes.set_xlabel(f"moves in the winning line ({width} a bar)" if width > 1
                        else "moves in the winning line")
        axes.set_ylabel("solved deals")
        from matplotlib.ticker import MaxNLocator

        axes.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        alt = (f"Histogram of the winning-line lengths of the {len(lengths)} solved deals: "
               f"from {low} to {high} moves, median {median}.")
    else:
        axes.set_axis_off()
        axes.text(0.5, 0.5, "no deal solved", ha="center", va="center")
        alt = "No deal was solved."
    png, width_px, height_px = _png(figure)
    return ReportFigure("lengths", "Winning-line lengths", alt, png, width_px, height_px)


def report_figures(records: Iterable[Record]) -> list[ReportFigure]:
    """The report's figures, drawn from the latest record of each deal.

    Parameters
    ----------
    records : iterable of Record
        A survey's records in file order (a later record of a deal wins).

    Returns
    -------
    list of ReportFigure
        The verdicts, the search effort and the winning-line lengths.

    Raises
    ------
    BakersDozenError
        If there is no record, or matplotlib is not installed.
    TypeError
        If an item is not a :class:`~bakersdozen.records.Record`.
    """
    records = list(records)
    summary = summarize(records)  # raises TypeError for a non-record
    if not records:
        raise BakersDozenError("no records to draw")
    require_matplotlib()
    final = sorted(latest(records).values(), key=lambda r: deal_sort_key(r.deal))
    return [_verdicts_figure(summary), _effort_figure(final), _lengths_figure(final)]


def _reason(record: Record) -> str:
    """What the record says of an unsolvable or unknown deal, in words."""
    searches = {"proof": "the proof search", "layers": "the layered search"}
    by = f", by {searches.get(record.method, record.method)}" if record.method != "dfs" else ""
    if record.verdict is Verdict.UNSOLVABLE:
        if record.deadlock:
            cards = " ".join(str(card) for card in record.deadlock)
            return f"lost as dealt: {cards} can never move"
        if record.nodes == 0:
            return "proved at the deal, before any search (0 positions)"
        return f"no winning line: every reachable position searched{by}"
    limits = {
        "time_limit": ("time limit", None if record.time_limit is None
                       else f"{record.time_limit:g} s"),
        "max_nodes": ("node limit", None if record.max_nodes is None
                      else f"{record.max_nodes:,} positions"),
        "memory_mb": ("memory limit", f"{record.memory_mb:g} MiB"),
        "disk": ("disk budget, or a full disk", None),
    }
    if record.reason is None:
        return "stopped by a limit the file does not record"
    name, value = limits.get(record.reason, (record.reason, None))
    words = f"{name} ({value})" if value else name
    return words + by


def _deal_table(name: str, records: Sequence[Record], games: bool) -> str:
    if not records:
        return f'<p id="{name}-none">No {name} deal.</p>'
    head = "<th>game</th>" if games else ""
    rows = []
    for r in records:
        game = f"<td>{html.escape(r.game)}</td>" if games else ""
        rows.append(
            f'<tr data-deal="{html.escape(str(r.deal))}"><td>{html.escape(str(r.deal))}</td>{game}'
            f"<td>{html.escape(_reason(r))}</td><td class=\"n\">{r.nodes:,}</td>"
            f"<td class=\"n\">{r.seconds:.3f}</td></tr>"
        )
    return (f'<table id="{name}"><thead><tr><th>deal</th>{head}<th>reason</th>'
            '<th class="n">positions</th><th class="n">seconds</th></tr></thead>\n<tbody>'
            + "\n".join(rows) + "</tbody></table>")


CSS: Final = """\
body { font: 16px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 960px;
       padding: 0 1em; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h1 small { display: block; font-size: 0.6em; font-weight: normal; color: #555; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: left;
         vertical-align: top; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: #444; font-size: 0.9em; margin-top: 0.3em; }
.scroll { max-height: 30em; max-width: 100%; overflow: auto; display: inline-block; }
"""


def report_html(records: Iterable[Record], *, title: str = "Survey report",
                figures: Sequence[ReportFigure] | None = None) -> str:
    """A self-contained HTML page of a survey's records, with figures.

    Parameters
    ----------
    records : iterable of Record
        A survey's records in file order (:func:`bakersdozen.survey.read_records`);
        a later record of a deal wins.
    title : str
        The page's heading (escaped), e.g. the survey file's name.
    figures : sequence of ReportFigure, optional
        :func:`report_figures` of the same records, if already drawn.

    Returns
    -------
    str
        One HTML5 document: the counts and the 95 % Wilson score interval
        (also as text), three figures as base64 PNG ``data:`` images with
        text alternatives, and tables of the unsolvable and unknown deals
        (module documentation).  It requests nothing from any host.  About
        150 KB of figures, plus about 100 bytes per listed deal.

    Raises
    ------
    BakersDozenError
        If there is no record, or matplotlib is not installed
        (:data:`MATPLOTLIB_MISSING`).
    TypeError
        If an item is not a Record or *title* is not a str.
    """
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, not {type(title).__name__}")
    records = list(records)
    if figures is None:
        figures = report_figures(records)
    summary = summarize(records)
    final = sorted(latest(records).values(), key=lambda r: deal_sort_key(r.deal))
    games = sorted({r.game for r in final})
    unsolvable = [r for r in final if r.verdict is Verdict.UNSOLVABLE]
    unknown = [r for r in final if r.verdict is Verdict.UNKNOWN]
    rows = [
        ("solved", f"{summary.solved:,}"),
        ("unsolvable (proved)", f"{summary.unsolvable:,}"),
        ("unknown", f"{summary.unknown:,}"),
        ("total", f"{summary.total:,}"),
    ]
    if summary.winnability is not None:
        low, high = summary.interval
        rows.append((f"winnability over the {summary.decided:,} decided deals",
                     f'<span id="winnability">{_percent(summary.winnability)}</span>'))
        rows.append(("95 % Wilson score interval",
                     f'<span id="interval">{_percent(low)} to {_percent(high)}</span>'))
    else:
        rows.append(("winnability", '<span id="winnability">no deal decided</span>'))
    rows.append(("winnability over all deals (unknowns unsolvable … solvable)",
                 f'<span id="bounds">{_percent(summary.bounds[0])} to '
                 f"{_percent(summary.bounds[1])}</span>"))
    if summary.seconds:
        rows.append(("seconds per deal: median, p90, p99, max",
                     ", ".join(f"{summary.seconds[p]:.3f}" for p in (50, 90, 99, 100))))
    if summary.lengths:
        rows.append(("winning-line moves: median, p90, p99, max",
                     ", ".join(str(summary.lengths[p]) for p in (50, 90, 99, 100))))
    counts = "\n".join(
        f'<tr><th scope="row">{label}</th><td class="n">{value}</td></tr>' for label, value in rows
    )
    captions = {
        "verdicts": "Left: the deals by verdict (latest record of each deal). Right: the "
        "winnability over the decided deals with its 95 % Wilson score interval "
        f"(z = {Z_95:.4f}; Wilson 1927, J. Amer. Statist. Assoc. 22:209–212), and in grey "
        "the range the unknown deals leave open over all deals.",
        "effort": "The share of all deals not yet decided after the number of positions on "
        "the x axis (each record's nodes: positions its search generated). A decided deal "
        "leaves the curve at its nodes; an unknown deal stays (the ticks on the dashed line "
        "show where their searches stopped). Deals decided without a search (0 positions, "
        "such as deals lost as dealt) have left before x = 1.",
        "lengths": "Moves in the winning line of each solved deal (the record's length).",
    }
    parts = []
    for figure in figures:
        data = base64.b64encode(figure.png).decode("ascii")
        parts.append(
            f'<section><h2>{html.escape(figure.title)}</h2>\n<figure id="{figure.name}">'
            f'<img src="data:image/png;base64,{data}" width="{figure.width}" '
            f'height="{figure.height}" alt="{html.escape(figure.alt)}">'
            f"<figcaption>{html.escape(captions[figure.name])}</figcaption></figure></section>"
        )
    several = len(games) > 1
    game_text = ", ".join(games)
    csp = policy("img-src data:", f"style-src {csp_hash(CSS)}")
    return _PAGE.format(
        csp=csp, title=html.escape(title), css=CSS,
        summary=html.escape(f"{summary.total:,} deals · {game_text}"),
        counts=counts, figures="\n".join(parts),
        unsolvable_count=len(unsolvable), unknown_count=len(unknown),
        unsolvable=_deal_table("unsolvable", unsolvable, several),
        unknown=_deal_table("unknown", unknown, several),
    )


_PAGE: Final = HEAD + """\
<body>
<h1>{title} <small>{summary}</small></h1>
<section><h2>Counts</h2>
<table id="counts">
{counts}
</table></section>
{figures}
<section><h2>Unsolvable deals ({unsolvable_count})</h2>
<div class="scroll">{unsolvable}</div></section>
<section><h2>Unknown deals ({unknown_count})</h2>
<div class="scroll">{unknown}</div></section>
</body>
</html>
"""
