"""Surveys: solve many deals, record one line per deal, resume, summarise.

The parts, each its own module:

- :mod:`~bakersdozen.survey.tasks`: deal ranges (streamed), boards files,
  what one task is;
- :mod:`~bakersdozen.survey.runner`: :func:`~bakersdozen.survey.runner.survey` and
  :func:`~bakersdozen.survey.runner.run`, which
  run tasks on any :class:`concurrent.futures.Executor`;
- :mod:`~bakersdozen.survey.workers`: the default executors (worker
  processes that die with the survey, or this process);
- :mod:`~bakersdozen.survey.codecs`: records as JSON Lines and CSV lines;
- :mod:`~bakersdozen.survey.log`: the file as an append-only log (locking,
  torn last line, resume; the latest record of a deal wins).

The record is :class:`bakersdozen.records.Record` and the summary
:func:`bakersdozen.summarize`, both shared with ``solve --json`` and
``bench``.  The file format is described in ``docs/survey.md``.

For 0.1.0 compatibility this module can be called: ``bakersdozen.survey(deals,
...)`` is :func:`bakersdozen.survey.runner.survey`.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ..records import Record, latest
from ..stats import Summary, summarize, wilson_interval
from .codecs import format_record, output_format
from .log import RecordWriter, pending, read_records
from .runner import Limits, default_memory_mb, run, solve_task, survey
from .tasks import DealRange, normalise, parse_deal_range, read_boards, split_boards

__all__ = [
    "survey",
    "run",
    "Limits",
    "solve_task",
    "default_memory_mb",
    "DealRange",
    "parse_deal_range",
    "read_boards",
    "split_boards",
    "normalise",
    "read_records",
    "RecordWriter",
    "pending",
    "format_record",
    "output_format",
    "Record",
    "latest",
    "Summary",
    "summarize",
    "wilson_interval",
]


class _CallableModule(types.ModuleType):
    """``bakersdozen.survey(...)`` calls :func:`survey`, as in 0.1.0."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return survey(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
