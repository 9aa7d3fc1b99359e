"""The layered search on disk: its work directory, files and manifest (private).

docs/engine.md ("The layered search on disk") gives the idea and why it is
correct.  The search itself (:class:`bakersdozen._layers.LayeredSearch`)
expands a file of records and appends the children that leave their layer
to the file of their progress value (``_spill.pxd`` moves the bytes); this
module decides which file is read next, splits a file too large for the
memory budget, and keeps the checkpoint:

- ``pNNN.rec``: the records of progress NNN not yet expanded, in blocks of
  one layer each (its key, then each position's record in its layer, 1-8
  or 16 bytes; ``_spill.pxd``); duplicates are allowed: they meet in the
  layer's hash set when the file is loaded.
- ``pNNN.sKKKKKK.rec``: the same, split by a hash of the layer key into
  parts that each fit the memory budget (a layer is never split); a part
  whose layers do not fit after all is split again (another hash).
- ``kNNN.rec``: the kept records of progress NNN: every position the
  search expanded and found not lost, layer by layer in the order expanded,
  for the winning line (docs/engine.md, "Winning lines from the layers").
- ``manifest.json``: the checkpoint, written whole (a temporary file,
  fsync, rename, fsync of the directory) after each progress value or
  part: the position searched, the next step, the counts so far and the
  length of every pending file, each file synced first.

A run stopped at any moment (a limit, Ctrl-C, SIGKILL, a full disk) goes on
from the manifest: every file it lists is cut back to its length, any other
file of records deleted, and the step after the checkpoint is done again,
so that the counts come out as those of a run never stopped.  Only
:mod:`bakersdozen.solver` imports this module.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence

from . import _layers, _search
from .errors import ArgumentError, BakersDozenError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any, Final

__all__ = ["DiskLayers", "FORMAT", "VERSION", "MANIFEST"]

#: The manifest's name in the work directory.
MANIFEST: Final = "manifest.json"
#: The manifest's ``format`` and ``version``: a work directory of another
#: format or version is refused.
FORMAT: Final = "bakersdozen layered search on disk"
VERSION: Final = 4

#: The states a manifest may be in: a search going on, or its outcome.
_STATES = ("running", "solved", "unsolvable")
_RECORDS = re.compile(r"(p\d{3}(\.s\d{6})?|k\d{3})\.rec\Z")
_KEPT = re.compile(r"k\d{3}\.rec\Z")
#: Most parts a progress value's file is split into (one split pass writes them all).
MAX_PARTS: Final = 4096
#: What the error of a damaged work directory says to do.
DELETE_IT: Final = "delete the directory to start the search again"
#: A kept file's name, of the search in one process or of a task.
_ANY_KEPT = re.compile(r"k\d{3}\.")
#: The bytes of a part are at most this share of the memory left: a
#: position of *b* bytes a record (1-8, or 16) takes its b bytes and a
#: block head's share in the file (with the repeats its buffer's sort did
#: not meet), and 1.3 to 2.7 times b in its layer's hash set (4 times while
#: the set doubles), and the layer being expanded grows by the positions
#: its own moves reach.  A part that does not fit after all is split
#: again, its work so far undone.
PART_SHARE: Final = 0.25

#: Seconds between two manifests at least, by default: each one syncs the
#: files that grew, and a search of small steps (some milliseconds each)
#: would spend most of its time syncing.
CHECKPOINT_SECONDS: Final = 1.0

Progress = Callable[[int, int], object]


def progress_file(progress: int) -> str:
    """The name of the file of records of *progress*."""
    return f"p{progress:03d}.rec"


def kept_file(progress: int) -> str:
    """The name of the kept records of *progress* (the positions expanded)."""
    return f"k{progress:03d}.rec"


def part_file(progress: int, part: int) -> str:
    """The name of part *part* of the records of *progress* (parts are numbered
    from 0 over the whole search)."""
    return f"p{progress:03d}.s{part:06d}.rec"


def _sync(path: str, directory: bool = False) -> None:
    """fsync *path* (a directory's entries, where the system can: not on Windows)."""
    if directory and os.name == "nt":
        return
    fd = os.open(path, os.O_RDONLY if directory else os.O_RDWR)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _is_ours(name: str) -> bool:
    """Whether *name* is that of a file of records of this search."""
    return _RECORDS.match(name) is not None


def read_manifest(directory: str, where: str, kind: tuple[str, int], position: Any,
                  fields: Mapping[str, type],
                  others: Mapping[tuple[str, int], str] | None = None) -> dict[str, Any]:
    """The manifest of *directory*, checked: a run of *kind* (format, version),
    whole (its checksum), on *position* in this machine's byte order, with
    the counts of a search and the *fields* of its kind (name: type).

    Raises ArgumentError (naming *where*) for a manifest that cannot be read
    or is damaged, another format or version (with the message of *others*
    for the kinds it names), another byte order or another position.
    """
    try:
        with open(os.path.join(directory, MANIFEST), encoding="utf-8") as f:
            manifest = json.load(f)
        if not isinstance(manifest, dict):
            raise ValueError("not an object")
        found = (manifest.get("format"), manifest.get("version"))
    except (OSError, ValueError) as error:
        raise ArgumentError(f"{where} is damaged: {MANIFEST} cannot be read ({error}); "
                            f"{DELETE_IT}") from None
    if others and found in others:
        raise ArgumentError(f"{where} {others[found]}")  # type: ignore[index]
    if found != kind:
        raise ArgumentError(
            f"{where} holds a run of format {found[0]!r} version {found[1]!r}; this "
            f"version of bakersdozen reads {kind[0]!r} version {kind[1]}: go on with the "
            f"version that wrote it, or {DELETE_IT}")
    if manifest.get("checksum") != _checksum(manifest):
        raise ArgumentError(f"{where} is damaged: {MANIFEST} does not match its checksum "
                            f"(edited or corrupted since it was written); {DELETE_IT}")
    if manifest.get("byteorder") != sys.byteorder:
        raise ArgumentError(
            f"{where} holds records in {manifest.get('byteorder')!r}-endian words, and "
            f"this machine is {sys.byteorder}-endian")
    if manifest.get("position") != position:
        raise ArgumentError(
            f"{where} holds the layered search of another position or other rules: "
            f"give another directory for this one")
    fault = _manifest_fault(manifest, fields)
    if fault:
        raise ArgumentError(f"{where} is damaged: {MANIFEST} {fault}; {DELETE_IT}")
    return manifest


#: The largest count a manifest may hold (the engine counts in 64-bit words).
_MAX_COUNT = 2**63 - 1


def _checksum(manifest: Mapping[str, Any]) -> str:
    """SHA-256 of *manifest* without its own ``checksum``, as :func:`write_manifest` writes it."""
    import hashlib

    body = {key: value for key, value in manifest.items() if key != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


#: The counts every manifest keeps (:meth:`bakersdozen._layers.LayeredSearch.counts`;
#: a search may keep more).
_COUNTS = frozenset({"nodes", "stored", "lost", "layers", "largest", "top_progress",
                     "peak_bytes", "peak_disk", "written"})


def _manifest_fault(manifest: Mapping[str, Any], fields: Mapping[str, type]) -> str:
    """What is wrong with a whole manifest of the right kind, or "": the
    shapes the search relies on (counts, the *fields* of its kind, progress,
    state, file names inside the directory)."""
    counts, files = manifest.get("counts"), manifest.get("files")
    if not isinstance(counts, dict) or not counts.keys() >= _COUNTS or not all(
            type(v) is int and 0 <= v <= _MAX_COUNT for v in counts.values()):
        return "has no counts, or one that is not a count"
    for name, kind in fields.items():
        value = manifest.get(name)
        if not isinstance(value, kind) or kind is int and not (
                type(value) is int and 0 <= value <= _MAX_COUNT):
            return f"has no {name}, or one that is not a {kind.__name__}"
    if not isinstance(files, dict) or not all(
            type(v) is int and 0 <= v <= _MAX_COUNT for v in files.values()):
        return "has no files, or a length that is not a count"
    for name in files:
        if (not isinstance(name, str) or name in ("", ".", "..") or "/" in name
                or os.sep in name or "\0" in name or name.startswith(".")):
            return f"names a file outside its directory: {name!r}"
    sums = manifest.get("sums")
    if not isinstance(sums, dict) or sums.keys() != files.keys() or not all(
            type(v) is int and 0 <= v < 2**32 for v in sums.values()):
        return "has no checksum (CRC-32) for each file it lists"
    progress = manifest.get("progress")
    if type(progress) is not int or not 0 <= progress <= _layers.PROGRESS_VALUES:
        return f"has a progress value out of range: {progress!r}"
    if manifest.get("state") not in _STATES:
        return f"has an unknown state: {manifest.get('state')!r}"
    return ""


def _crc(path: str, start: int, end: int, crc: int = 0) -> int:
    """CRC-32 of bytes *start*..*end* of the file *path*, continuing *crc*."""
    import zlib

    with open(path, "rb") as stream:
        stream.seek(start)
        left = end - start
        while left > 0:
            chunk = stream.read(min(left, 1 << 20))
            if not chunk:
                break  # shorter than it should be: the sum will not match
            crc = zlib.crc32(chunk, crc)
            left -= len(chunk)
    return crc


def file_sums(directory: str, files: Mapping[str, int],
              previous: Mapping[str, Any] | None) -> dict[str, int]:
    """The CRC-32 of the first ``files[name]`` bytes of each file of *directory*
    that *files* lists, for its manifest (``sums``).  A file that only grew
    since the *previous* manifest (files are appended to) is summed from the
    sum that one holds, reading only its new bytes."""
    old_files = previous.get("files", {}) if previous else {}
    old_sums = previous.get("sums", {}) if previous else {}
    sums = {}
    for name, length in files.items():
        path = os.path.join(directory, name)
        start = old_files.get(name, -1)
        if name in old_sums and 0 <= start <= length:
            sums[name] = _crc(path, start, length, old_sums[name])
        else:
            sums[name] = _crc(path, 0, length)
    return sums


def check_sums(directory: str, manifest: Mapping[str, Any], where: str) -> None:
    """Every file *manifest* lists holds, over its length, the CRC-32 the
    manifest keeps: ArgumentError (naming *where*) for the first that does not
    (a file overwritten or corrupted in place since it was written)."""
    for name, length in manifest["files"].items():
        if _crc(os.path.join(directory, name), 0, length) != manifest["sums"][name]:
            raise ArgumentError(
                f"{where} is damaged: {name} does not hold the bytes its manifest's checksum "
                f"says (changed since it was written); {DELETE_IT}")


def write_manifest(directory: str, manifest: dict[str, Any]) -> None:
    """Write *manifest* into *directory* whole or not at all: a temporary
    file, fsync, rename, fsync of the directory; with its own checksum."""
    temp = os.path.join(directory, MANIFEST + ".tmp")
    manifest = dict(manifest, checksum=_checksum(manifest))
    try:
        with open(temp, "w", encoding="utf-8") as out:
            json.dump(manifest, out, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, os.path.join(directory, MANIFEST))
    except OSError as error:
        if error.filename is None:  # a failed write names no file: say which
            error.filename = temp
        raise
    _sync(directory, directory=True)


def write_checkpoint(directory: str, manifest: dict[str, Any],
                     previous: Mapping[str, Any] | None) -> None:
    """Write *manifest* (:func:`write_manifest`) with the checksum of each
    file it lists (``sums``: :func:`file_sums`, going on from those of the
    *previous* manifest)."""
    manifest["sums"] = file_sums(directory, manifest["files"], previous)
    write_manifest(directory, manifest)


class WorkDirLock:
    """An exclusive lock on a work directory (``flock`` of the directory
    itself, so that no file is added to it): one search at a time on a
    work directory.  Held from when it is made until :meth:`release`, the
    end of a ``with`` block (whose start takes it again if it was let go),
    or the end of the object or of its process.  Where the file system
    cannot lock a directory (some network file systems) it holds nothing,
    and :attr:`held` is False.

    Raises
    ------
    ArgumentError
        If another search (of any process) holds the directory.
    """

    def __init__(self, directory: str) -> None:
        self._directory = directory
        self._fd: int | None = None
        #: False where the file system cannot lock a directory
        self.held = True
        self._acquire()

    def _acquire(self) -> None:
        self._fd = os.open(self._directory, os.O_RDONLY)
        try:
            import fcntl
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            raise ArgumentError(
                f"work_dir: {self._directory!r} is in use by another search (one search at "
                f"a time on a work directory): wait for it, or stop it") from None
        except (ImportError, OSError):  # no flock here: nothing to hold
            self.release()
            self.held = False

    def release(self) -> None:
        """Let another search have the directory."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> WorkDirLock:
        if self._fd is None and self.held:
            self._acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __del__(self) -> None:
        self.release()


def open_work_dir(directory: str, resume: bool,
                  ours: Callable[[str], bool]) -> tuple[WorkDirLock, bool]:
    """Make *directory* the work directory of one search: made if missing
    and locked (:class:`WorkDirLock`); with True if it holds a run to go on
    with (a manifest), False if it is ready for a fresh run (empty; with
    *resume*, what a start killed before its first manifest leaves, the
    root's file and a temporary manifest, is deleted first).

    Raises
    ------
    ArgumentError
        If *directory* is not a directory, is in use by another search,
        holds a run and *resume* is False, holds files of records (those
        *ours* names) but no manifest (damaged: the lock is let go), or
        holds other files (or any file and *resume* is False).
    """
    where = f"work_dir: {directory!r}"
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise ArgumentError(f"{where} is not a directory")
    os.makedirs(directory, exist_ok=True)
    lock = WorkDirLock(directory)
    try:
        names = os.listdir(directory)
        if MANIFEST in names:
            if not resume:
                raise ArgumentError(
                    f"{where} holds a run of the layered search already: resume=True "
                    f"(--resume) goes on with it; or give an empty directory")
            return lock, True
        # what a start killed before its first manifest leaves (the root's file,
        # written first, and a manifest not yet renamed into place)
        begun = {progress_file(0), MANIFEST + ".tmp"}
        if names and resume and set(names) <= begun:
            for name in names:
                os.unlink(os.path.join(directory, name))
        elif names and resume and all(ours(n) or n in begun for n in names):
            raise ArgumentError(
                f"{where} is damaged: it holds {len(names)} file{'s' * (len(names) > 1)} of a "
                f"search and no "
                f"{MANIFEST} (deleted?), so they cannot be resumed; {DELETE_IT}")
        elif names:
            raise ArgumentError(
                f"{where} is not empty ({len(names)} entries, no {MANIFEST}): the layered "
                f"search starts in an empty directory")
        return lock, False
    except BaseException:
        lock.release()  # a refused directory is not held while the error is
        raise


def tell_tracing(progress: object, kept: int) -> None:
    """Call ``progress.tracing(kept)`` if *progress* has such a callable: the
    search reached a won position and now traces its line back through
    *kept* bytes of kept files (for minutes on a hard deal, with no other
    call of *progress* meanwhile)."""
    hook = getattr(progress, "tracing", None)
    if callable(hook):
        hook(kept)


def write_root(directory: str, root: bytes) -> dict[str, int]:
    """Write the record of the searched position as the first file of a fresh
    run (synced); the files of its first manifest."""
    with open(os.path.join(directory, progress_file(0)), "wb") as out:
        out.write(root)
        out.flush()
        os.fsync(out.fileno())
    return {progress_file(0): len(root)}


def restore_files(directory: str, manifest: Mapping[str, Any],
                  ours: Callable[[str], bool]) -> int:
    """Bring *directory* back to its *manifest*: every file it lists cut back
    to its length and checked against its checksum (:func:`check_sums`), the
    other files of records (those *ours* names) deleted; the bytes the
    listed files hold.

    Raises
    ------
    ArgumentError
        If a listed file is missing, shorter than the manifest says or does
        not match its checksum.
    """
    files: Mapping[str, int] = manifest["files"]
    for name in os.listdir(directory):
        if name not in files and (ours(name) or name == MANIFEST + ".tmp"):
            os.unlink(os.path.join(directory, name))
    for name, length in files.items():
        path = os.path.join(directory, name)
        size = os.path.getsize(path) if os.path.exists(path) and not os.path.isdir(path) else -1
        if size < 0:
            way = ("go on without the line record (--no-line-record, line_record=False), "
                   "or " if _ANY_KEPT.match(name) else "")
            raise ArgumentError(f"work_dir: {directory!r} is damaged: {name} is missing or "
                                f"not a file; {way}{DELETE_IT}")
        if size < length:
            raise ArgumentError(
                f"work_dir: {directory!r} is damaged: {name} holds {size} bytes, "
                f"its manifest says {length}; {DELETE_IT}")
        if size > length:
            os.truncate(path, length)
    check_sums(directory, manifest, f"work_dir: {directory!r}")
    return sum(files.values())


def drop_line_record(directory: str, manifest: dict[str, Any], kept: Callable[[str], bool],
                     write: Callable[[dict[str, Any]], None]) -> None:
    """Write with *write* the manifest of a run that goes on without its
    line record (``keep`` False): *manifest* with the kept files (those
    *kept* names) no longer listed, so that the resume deletes them.
    Nothing is written if *manifest* keeps none or its run is over.  The
    counts and the pending files are those of the checkpoint: only the
    record a won position's line is traced back through is let go
    (docs/engine.md, "Without the line record").  On a disk too full for
    the manifest, the kept files are deleted first: the old manifest then
    names files that are gone, which only a resume without the line record
    takes (it writes this one)."""
    if not manifest.get("keep", True) or manifest["state"] != "running":
        return
    files = {name: n for name, n in manifest["files"].items() if not kept(name)}
    sums = {name: n for name, n in manifest["sums"].items() if name in files}
    dropped = dict(manifest, files=files, sums=sums, keep=False)
    try:
        write(dropped)
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        for name in manifest["files"]:
            if kept(name):
                try:
                    os.unlink(os.path.join(directory, name))
                except FileNotFoundError:
                    pass
        write(dropped)


class DiskLayers:
    """The layered search of one position, its pending layers kept in files.

    Parameters
    ----------
    args : tuple
        The engine's position: card-index columns, foundation heights, the
        pack's ranks, the play codes (as :class:`bakersdozen._layers.LayeredSearch`).
    memory_mb : float
        MiB for the search: the layers being expanded, the files' write
        buffers and the read buffer.
    work_dir : str or os.PathLike
        The work directory (made if missing).
    disk_mb : float or None
        MiB the files of the work directory may hold; None: as much as the
        disk has.
    resume : bool
        Go on with the run the work directory holds (or start one if it
        holds none); False needs an empty (or missing) directory.
    line_record : bool
        Keep the record of the positions expanded (the kept files, about 4
        bytes a position stored) that a won position's line is traced back
        through.  False: keep none, and a run resumed with False lets go of
        the record it kept (a run without one never gets it back).

    Raises
    ------
    ArgumentError
        If the work directory is not empty and *resume* is False, holds a
        run of another position, rules or format version, or is damaged (a
        file shorter than its manifest says), or is not a directory, or is
        in use by another search (:class:`WorkDirLock`: the search holds it
        from when it is made until its :meth:`run` ends).
    ValueError
        As :class:`bakersdozen._layers.LayeredSearch`.
    """

    def __init__(self, args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
                 *, memory_mb: float, work_dir: str | os.PathLike[str],
                 disk_mb: float | None = None, resume: bool = False,
                 line_record: bool = True) -> None:
        columns, foundations, ranks, play = args
        self._search = _layers.LayeredSearch(*args, memory_mb=memory_mb)
        self._line_record = line_record
        self._dir = os.fspath(work_dir)
        self._position = {"columns": [list(c) for c in columns],
                          "foundations": list(foundations), "ranks": ranks,
                          "play": list(play)}
        self._won = not any(columns)
        self._disk_budget = 0 if disk_mb is None else max(int(disk_mb * 2**20), 1)
        self._manifest = self._open(resume)
        if not line_record:
            drop_line_record(self._dir, self._manifest, _KEPT.match, self._write_manifest)
        if not self._manifest.get("keep", True):
            self._search.keep_lines = False
        #: nodes of the checkpoint this run went on from (0 for a fresh run)
        self.resumed_nodes: int = self._manifest["counts"]["nodes"]
        #: bytes of the largest file expanded without splitting it; None (the
        #: default): as :data:`PART_SHARE` of the memory free says (tests set
        #: it small to split often)
        self.part_bytes: int | None = None
        #: seconds between two manifests at least (the last step's state is
        #: written when a limit stops the search, so only a killed process
        #: loses work: this much at most)
        self.checkpoint_seconds: float = CHECKPOINT_SECONDS
        self._state: dict[str, Any] | None = None  # the last step's, not yet written
        self._drops: list[str] = []  # files needed by the manifest only
        self._next_checkpoint = 0.0
        self._splits = 0
        self._next_part = self._manifest["next_part"]
        #: what the search used (:attr:`bakersdozen._layers.LayeredSearch.stats`,
        #: and ``peak_disk``, ``written``: bytes), after :meth:`run`
        self.stats: dict[str, int] = {}

    # -- the work directory ------------------------------------------------------

    def _path(self, name: str) -> str:
        return os.path.join(self._dir, name)

    def _open(self, resume: bool) -> dict[str, Any]:
        """The manifest to go on from: the directory's, or a fresh run's (written)."""
        self._lock, going_on = open_work_dir(self._dir, resume, _is_ours)
        if going_on:
            return self._read_manifest(f"work_dir: {self._dir!r}")
        files = write_root(self._dir, self._search.root_record())
        counts = {k: 0 for k in self._search.counts()}
        manifest = {"format": FORMAT, "version": VERSION, "byteorder": sys.byteorder,
                    "position": self._position,
                    "state": "running", "progress": 0, "queue": [], "next_part": 0,
                    "counts": counts, "files": files, "keep": self._line_record}
        self._write_manifest(manifest)
        return manifest

    def _read_manifest(self, where: str) -> dict[str, Any]:
        return read_manifest(self._dir, where, (FORMAT, VERSION), self._position,
                             {"queue": list, "next_part": int})

    def _write_manifest(self, manifest: dict[str, Any]) -> None:
        """Write *manifest* whole or not at all (:func:`write_checkpoint`)."""
        write_checkpoint(self._dir, manifest, self.__dict__.get("_manifest"))
        self._manifest = manifest

    def _restore_files(self) -> int:
        """The directory brought back to the manifest (:func:`restore_files`)."""
        return restore_files(self._dir, self._manifest, _is_ours)

    def _pending(self) -> dict[str, int]:
        """The files of records in the directory now, with their lengths."""
        return {name: os.path.getsize(self._path(name)) for name in os.listdir(self._dir)
                if _is_ours(name)}

    def _step_done(self, progress: int, queue: list[list[Any]], drop: Sequence[str]) -> int:
        """A step is done: write out the buffers, note the state to go on from
        (the next step is *progress*, its parts still to expand *queue*; the
        files *drop* are needed no more), and write it as the manifest if the
        last one is :attr:`checkpoint_seconds` old: -1, or the status that
        stopped it."""
        st = self._search.close_files()
        if st >= 0:
            return int(st)
        self._drops.extend(drop)
        files = self._pending()
        for name in self._drops:
            files.pop(name, None)
        self._state = dict(self._manifest, progress=progress, queue=queue,
                           next_part=self._next_part, counts=self._search.counts(),
                           files=files)
        if time.monotonic() >= self._next_checkpoint:
            self._checkpoint()
        return -1

    def _checkpoint(self) -> None:
        """Write the state of the last step done as the manifest (each file that
        grew synced first), then delete the files it needs no more."""
        if self._state is None:
            return
        old = self._manifest["files"]
        for name, length in self._state["files"].items():
            if old.get(name) != length:
                _sync(self._path(name))
        self._write_manifest(self._state)
        self._state = None
        for name in self._drops:
            path = self._path(name)
            if os.path.exists(path):
                freed = os.path.getsize(path)
                os.unlink(path)
                self._search.disk_used = max(self._search.disk_used - freed, 0)
        self._drops = []
        self._next_checkpoint = time.monotonic() + self.checkpoint_seconds

    # -- the search ---------------------------------------------------------------

    def run(self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
            progress: Progress | None = None) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Enumerate the reachable positions, going on from the checkpoint.

        As :meth:`bakersdozen._layers.LayeredSearch.run`, but *nodes* and
        *positions* count from the start of the search, across every run
        of the work directory; *max_nodes* and *time_limit* bound this run
        alone.  A finished search returns its outcome again.  Besides the
        statuses of :mod:`bakersdozen._search`, :data:`bakersdozen._layers.DISK_FULL`:
        the disk budget, or the disk itself, is full.

        Raises
        ------
        OSError
            If a read or write of the work directory fails otherwise.
        BakersDozenError
            If a file of records ends inside a record, or holds a block head
            or a record that no search writes (a damaged directory).
        KeyboardInterrupt
            (or whatever a signal handler or *progress* raised).  The steps
            done are kept for a resume; so is a won position's line, when
            the interruption comes after it was traced (a resume then gives
            the win at once).  The trace itself, one backward read of the
            kept files, runs to its end whatever the limits.
        """
        with self._lock:  # held since the search was made, or taken again
            return self._run(time_limit=time_limit, max_nodes=max_nodes, seed=seed,
                             progress=progress)

    def _run(self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
             progress: Progress | None = None) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """:meth:`run`, the work directory locked."""
        search = self._search
        counts = self._manifest["counts"]
        search.restore(counts)
        if self._won:
            return (_search.SOLVED, [], 0, 1, 0)
        state = self._manifest["state"]
        if state != "running":
            self.stats = dict(search.stats, peak_disk=counts["peak_disk"],
                              written=counts["written"], splits=0,
                              kept_bytes=self._manifest.get("kept_bytes", 0))
            status = _search.SOLVED if state == "solved" else _search.UNSOLVABLE
            kept_line = [(m[0], m[1], m[2]) for m in self._manifest.get("line", [])]
            return (status, kept_line, counts["nodes"], 1, counts["stored"])
        used = self._restore_files()
        paths = [os.fsencode(self._path(progress_file(p)))
                 for p in range(_layers.PROGRESS_VALUES)]
        search.spill_to(paths, disk_budget=self._disk_budget, disk_used=used)
        if self._manifest.get("keep", True):  # runs begun before the option keep one
            search.keep_to([os.fsencode(self._path(kept_file(p)))
                            for p in range(_layers.PROGRESS_VALUES)])
        search.begin(time_limit=time_limit, max_nodes=max_nodes, progress=progress)
        self._next_checkpoint = time.monotonic() + self.checkpoint_seconds
        line: list[tuple[int, int, int]] = []
        try:
            status = self._steps()
            if status == _search.SOLVED:
                status, line = self._line(progress)
        except BaseException:
            # Ctrl-C, or what the progress callable raised: the steps done
            # since the last manifest are kept (a step only ever stops whole),
            # and a line traced is kept as the outcome (a resume gives it)
            search.drop_buffers()
            try:
                traced = search.traced
                if traced is not None:
                    self._finish(_search.SOLVED, list(traced), self._kept_bytes())
                else:
                    self._checkpoint()
            except OSError:
                pass
            raise
        finally:
            search.end()
            search.drop_buffers()
        kept = self._kept_bytes()
        if status in (_search.SOLVED, _search.UNSOLVABLE):
            self._finish(status, line, kept)
        elif status in (_search.TIME_LIMIT, _search.NODE_LIMIT, _search.OUT_OF_MEMORY,
                        _layers.DISK_FULL):
            try:  # the steps done since the last manifest are kept
                self._checkpoint()
            except OSError:  # the disk is full: the last manifest stands
                if status != _layers.DISK_FULL:
                    raise
        elif status == _layers.IO_ERROR:
            raise OSError(search.errno, os.strerror(search.errno), self._dir)
        elif status == _layers.DAMAGED:
            raise BakersDozenError(
                f"work_dir: {self._dir!r} is damaged: a file of records ends inside a record "
                f"or holds one that no search writes; "
                f"{DELETE_IT}")
        done = search.counts()
        self.stats = dict(search.stats, peak_disk=done["peak_disk"], written=done["written"],
                          splits=self._splits, kept_bytes=kept)
        return (status, line, done["nodes"], 1, done["stored"])

    def _kept_bytes(self) -> int:
        """The bytes of the kept files in the work directory now."""
        return sum(os.path.getsize(self._path(name)) for name in os.listdir(self._dir)
                   if _KEPT.match(name))

    def _line(self, progress: Progress | None) -> tuple[int, list[tuple[int, int, int]]]:
        """The search reached a won position: its winning line, traced back
        through the kept files, with SOLVED; or the status that stopped the
        writing out of the buffers (the disk full), with no line.  The
        walk is announced to *progress* (:func:`tell_tracing`)."""
        search = self._search
        st = search.close_files()
        if st >= 0:
            return int(st), []
        if not self._manifest.get("keep", True):
            return _search.SOLVED, []  # no record: the solver looks for the line
        paths = [os.fsencode(self._path(kept_file(p))) for p in range(_layers.PROGRESS_VALUES)
                 if os.path.exists(self._path(kept_file(p)))]
        search.abandon()  # the layers' memory goes back before the walk
        tell_tracing(progress, self._kept_bytes())
        line = search.trace(paths)
        if line is None:
            raise BakersDozenError(
                f"work_dir: {self._dir!r} is damaged: its kept files give no winning line; "
                f"{DELETE_IT}")
        return _search.SOLVED, line

    def _finish(self, status: int, line: list[tuple[int, int, int]], kept: int) -> None:
        """Record the outcome (and the winning line), and delete every file of records."""
        names = list(self._pending())
        manifest = dict(self._manifest, counts=self._search.counts(), files={},
                        state="solved" if status == _search.SOLVED else "unsolvable",
                        line=[list(m) for m in line], kept_bytes=kept)
        self._write_manifest(manifest)
        for name in names:
            os.unlink(self._path(name))
        self._search.disk_used = 0

    def _parts_for(self, size: int) -> int:
        """Parts a file of *size* bytes is split into so that each fits the memory."""
        budget, held, sink, chunk = self._search.memory()
        # held: what the search has allocated (never given back: its arrays
        # at their largest, the buffers in use); some more write buffers
        free = budget - held - 8 * sink
        target = max(free, 0) * PART_SHARE if self.part_bytes is None else self.part_bytes
        if size <= target:
            return 1
        most = max(2, min(MAX_PARTS, _layers.most_parts(budget)))
        return min(most, math.ceil(size / max(target, 1)))

    def _expand(self, name: str, progress: int) -> int:
        return int(self._search.expand_file(os.fsencode(self._path(name)), progress))

    def _split(self, progress: int, name: str, n: int, depth: int) -> tuple[int, list[list[Any]]]:
        """Split file *name* in *n* parts (the hash of *depth*): a status, the parts."""
        names = [part_file(progress, self._next_part + k) for k in range(n)]
        self._next_part += n
        self._splits += 1
        st = self._search.split_file(os.fsencode(self._path(name)),
                                     [os.fsencode(self._path(k)) for k in names],
                                     salt=depth * 0x9E3779B97F4A7C15 % 2**64)
        made = [[k, depth + 1, False] for k in names if os.path.exists(self._path(k))]
        return int(st), made

    def _back(self) -> None:
        """Go back to the state of the last step done (after a step ran out of
        memory): its counts, and its files at their lengths."""
        state = self._state or self._manifest
        self._search.abandon()
        self._search.restore(state["counts"])
        files = state["files"]
        used = 0
        for name in os.listdir(self._dir):
            if not _is_ours(name) or name in self._drops:
                continue
            if name in files:
                os.truncate(self._path(name), files[name])
                used += files[name]
            else:
                os.unlink(self._path(name))
        self._search.disk_used = used + sum(
            os.path.getsize(self._path(n)) for n in self._drops if os.path.exists(self._path(n)))

    def _steps(self) -> int:
        """Expand every pending progress value, from the checkpoint: a status."""
        m = self._manifest
        progress, queue = m["progress"], [list(e) for e in m["queue"]]
        while progress < _layers.PROGRESS_VALUES:
            if not queue:
                name = progress_file(progress)
                if not os.path.exists(self._path(name)):
                    progress += 1
                    continue
                queue = [[name, 0, False]]
            name, depth, whole = queue[0]
            n = 1 if whole else self._parts_for(os.path.getsize(self._path(name)))
            again = False
            if n == 1:
                st = self._expand(name, progress)
                if st == _search.OUT_OF_MEMORY:
                    # the layers of this file do not fit after all: back to
                    # the last step, and split it again (another hash)
                    self._back()
                    if whole:
                        return st  # a layer larger than the memory
                    n, again = 4, True
                elif st >= 0:
                    return st
            if n > 1:
                st, parts = self._split(progress, name, n, depth)
                if st >= 0:
                    return st
                if self._search.one_layer and parts:  # a split cannot part its records
                    if again:
                        self._back()
                        return _search.OUT_OF_MEMORY  # a layer larger than the memory
                    parts = [[parts[0][0], depth + 1, True]]
                rest = parts + queue[1:]
            else:
                rest = queue[1:]
            if not rest:
                progress += 1
            if st < 0:
                st = self._step_done(progress, rest, [name])
            if st >= 0:
                return int(st)
            queue = rest
        return _search.UNSOLVABLE
