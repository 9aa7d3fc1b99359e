"""Writing certificates of unsolvable deals (docs/certificates.md).

:func:`write_certificate` enumerates, layer by layer, every position
reachable from a deal by the moves the lemmas keep, drops the positions
dead by the deadlock lemma, and writes the rest as a certificate that
:func:`bakersdozen.verify_certificate` checks.  It uses the verifier's own
model of the game (:mod:`bakersdozen.verify`), so what it writes is closed
under exactly the successor relation the verifier recomputes; the verdict
it certifies comes from the engine (``solve``), and the writer confirms it
independently (it raises if it meets a won position).
"""

from __future__ import annotations

import heapq
import json
import lzma
import os
import tempfile
import time
from dataclasses import dataclass
from typing import BinaryIO

from .errors import BakersDozenError
from .model import Deal
from .verify import (
    COUNT_BYTES, END, FORMAT_VERSION, LEMMAS, MAGIC, CertificateError, deadlock, deal_json,
    frame_of, is_won, require_covered, rules_knobs, start_position,
)

__all__ = ["CertificateStats", "write_certificate"]


@dataclass(frozen=True, slots=True)
class CertificateStats:
    """What :func:`write_certificate` wrote.

    Attributes
    ----------
    path : str
        The certificate file.
    positions : int
        Member positions (0 for a deal lost as dealt).
    dead : int
        Positions reached and left out as dead by the deadlock lemma.
    layers : int
        Layers (blocks) written.
    bytes : int
        Size of the file.
    seconds : float
        Wall-clock time to write it.
    """

    path: str
    positions: int
    dead: int
    layers: int
    bytes: int
    seconds: float


def _header(deal: Deal, positions: int, layers: int, lemmas: tuple[str, ...] = LEMMAS,
            **extra: object) -> bytes:
    header = {
        "format": FORMAT_VERSION,
        "game": deal.rules.name,
        "knobs": rules_knobs(deal.rules),
        "deal": deal_json(deal),
        "lemmas": list(lemmas),
        "positions": positions,
        "layers": layers,
        **extra,
    }
    return MAGIC + json.dumps(header, separators=(", ", ": ")).encode() + b"\n"


def write_certificate(deal: Deal, path: str | os.PathLike[str], *,
                      max_positions: int | None = None) -> CertificateStats:
    """Write a certificate that *deal* cannot be won to *path*.

    Parameters
    ----------
    deal : Deal
        A deal (or position) of Baker's Dozen's play (Good Measure too).
    path : str or os.PathLike
        The file to write (replaced if it exists; written to a temporary
        file beside it first, so a failed run leaves no partial
        certificate).
    max_positions : int or None
        Stop with CertificateError after this many member positions.

    Returns
    -------
    CertificateStats

    Raises
    ------
    RulesError
        If the deal's play is not Baker's Dozen's.
    BakersDozenError
        If a won position is reachable: the deal can be won, and has no
        certificate.
    CertificateError
        If *max_positions* is exceeded.
    OSError
        If the file cannot be written; its file name is *path*, not the
        temporary file's.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"write_certificate() needs a Deal, not {type(deal).__name__}")
    require_covered(deal.rules)
    path = os.fspath(path)
    try:
        return _write(deal, path, max_positions)
    except OSError as failure:
        if failure.filename == path or failure.errno is None:
            raise
        # the temporary file beside *path* is no name the caller knows
        raise OSError(failure.errno, failure.strerror, path) from None


def _write(deal: Deal, path: str, max_positions: int | None) -> CertificateStats:
    began = time.perf_counter()
    frame = frame_of(deal)
    ranks = deal.ranks
    start = start_position(deal)
    lost = deadlock(start, ranks)
    folder = os.path.dirname(os.path.abspath(path))
    if lost:
        names = [str(c) for c in _cards(lost)]
        data = _header(deal, 0, 0, ("deadlock",), start="dead", deadlock=names,
                       compression="none")
        _replace(path, folder, [data])
        return CertificateStats(path, 0, 0, 0, len(data), time.perf_counter() - began)

    skey, swide = frame.encode_wide(start)
    pending: dict[bytes, set[int]] = {skey: {swide}}
    heap = [frame.order(skey)]
    members = dead = layers = 0
    comp = lzma.LZMACompressor(format=lzma.FORMAT_XZ, preset=6)
    forms = frame.successor_forms
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".cert-", delete=False) as body:
        try:
            while heap:
                _, key = heapq.heappop(heap)
                queue: list[tuple[int, object]] = [(w, None) for w in pending.pop(key)]
                seen = {w for w, _ in queue}
                kept: list[bytes] = []
                i = 0
                while i < len(queue):
                    wide, position = queue[i]
                    i += 1
                    if position is None:
                        position = frame.position(key, wide, check=False)
                    if deadlock(position, ranks):  # type: ignore[arg-type]
                        dead += 1
                        continue
                    if is_won(position):  # type: ignore[arg-type]
                        raise BakersDozenError("a won position is reachable: the deal can be "
                                               "won, so it has no certificate")
                    kept.append(frame.record(key, wide))
                    for _, _, nkey, nwide, nxt in forms(position):  # type: ignore[arg-type]
                        if nkey == key:
                            if nwide not in seen:
                                seen.add(nwide)
                                queue.append((nwide, nxt))
                            continue
                        want = pending.get(nkey)
                        if want is None:
                            want = pending[nkey] = set()
                            heapq.heappush(heap, frame.order(nkey))
                        want.add(nwide)
                del queue, seen
                if not kept:
                    continue
                kept.sort()
                members += len(kept)
                if max_positions is not None and members > max_positions:
                    raise CertificateError(f"more than {max_positions} positions: stopped")
                layers += 1
                body.write(comp.compress(key + len(kept).to_bytes(COUNT_BYTES, "big")
                                         + b"".join(kept)))
            body.write(comp.compress(END + members.to_bytes(8, "big")))
            body.write(comp.flush())
            body.close()
            header = _header(deal, members, layers, start="member", compression="lzma")
            with open(body.name, "rb") as part:
                _replace(path, folder, [header], part)
        finally:
            if os.path.exists(body.name):
                os.unlink(body.name)
    size = os.path.getsize(path)
    return CertificateStats(path, members, dead, layers, size, time.perf_counter() - began)


def _cards(bits: int) -> list[object]:
    from .cards import Card

    return [Card.from_index(c) for c in range(52) if bits >> c & 1]


def _replace(path: str, folder: str, chunks: list[bytes], tail: BinaryIO | None = None) -> None:
    """Write *chunks* then the file object *tail* to *path* through a temporary file."""
    import shutil

    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".cert-")
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
            if tail is not None:
                shutil.copyfileobj(tail, out)
        umask = os.umask(0o22)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would make it, not mkstemp's 0600
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
