"""Tournament entrants from command-line words: house bots, submission files, folders of them,
and Gradescope exports.

Students' files are read once, bounded and without following links, through the same intake as
a grading (``harness.intake``); each entrant plays a private copy of the bytes read (staged in a
folder of ours, so no game opens a path a student controls) and is fingerprinted by those bytes
(``fingerprints``), which is what lets a re-run reuse the games of unchanged entrants.
"""
from __future__ import annotations

import atexit
import functools
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Optional

from harness.intake.reading import take
from harness.records.games import HOUSE_PREFIX, Entrant
from harness.tournament.fingerprints import code_fingerprint


def parse_entrant(text: str, staging: Optional[Path] = None) -> list[Entrant]:
    """Entrants from one command-line word.

    ``NAME=SOURCE`` names a source; ``house:BOT`` is a house bot named BOT; a file is named by
    its stem; a folder stands for every ``*.py`` file directly inside it, sorted by name.
    Links, fifos and devices in a folder are passed over (``harness.intake.reading``), and each
    entrant's source is a copy written to ``staging`` (a private folder; a temporary one,
    removed at exit, when None).

    Raises:
        ValueError: for a path that does not exist, holds no Python file that can be read, or
            an empty name.
    """
    name, source = _split(text)
    if source.startswith(HOUSE_PREFIX):
        return [Entrant(name or source[len(HOUSE_PREFIX):], source)]
    path = Path(source)
    if not path.exists():
        raise ValueError(f"entrant {text!r}: no such file or folder")
    snapshot = take(path)
    if snapshot.refused:
        raise ValueError(f"entrant {text!r}: not read: {snapshot.refused}")
    files = sorted((f for f in snapshot.files if len(f.path.parts) == 1), key=lambda f: f.name)
    if path.is_dir() and not name:
        return [_read_entrant(PurePosixPath(f.name).stem, f.data, f.name, staging)
                for f in files]
    if not snapshot.is_file or not files:
        why = "; ".join(snapshot.ignored) or "not a Python file"
        raise ValueError(f"entrant {text!r}: nothing to play ({why})")
    return [_read_entrant(name or path.stem, files[0].data, files[0].name, staging)]


def _split(text: str) -> tuple[str, str]:
    """``NAME=SOURCE`` as (NAME, SOURCE); ("", TEXT) without a name."""
    name, sep, source = text.partition("=")
    return (name, source) if sep else ("", text)


def _house_name(text: str) -> str:
    """The entrant name of a house-bot word (``house:greedy``, ``bob=house:greedy``), else ""."""
    name, source = _split(text)
    return (name or source[len(HOUSE_PREFIX):]) if source.startswith(HOUSE_PREFIX) else ""


def _read_entrant(name: str, data: bytes, file_name: str, staging: Optional[Path]) -> Entrant:
    """An entrant playing a staged copy of ``data``, fingerprinted by those very bytes."""
    return Entrant(name, _staged(data, file_name, staging), code_fingerprint([(file_name, data)]))


def _staged(data: bytes, file_name: str, staging: Optional[Path]) -> str:
    """Write an entrant's bytes to a fresh private folder under ``staging``; the copy's path."""
    folder = Path(tempfile.mkdtemp(prefix="entrant-", dir=staging or _staging_root()))
    target = folder / file_name
    target.write_bytes(data)
    return str(target)


@functools.lru_cache(maxsize=None)
def _staging_root() -> str:
    root = tempfile.mkdtemp(prefix="gamegrader-entrants-")
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root



def is_export(path: Path) -> bool:
    """Whether ``path`` is a Gradescope export (a folder holding ``submission_metadata.yml``)."""
    from harness.batch.discover import METADATA_FILE

    return path.is_dir() and (path / METADATA_FILE).is_file()


def export_entrants(folder: Path, wanted: tuple[str, ...], staging: Optional[Path] = None,
                    reserved: frozenset[str] = frozenset()) -> tuple[list[Entrant], list[str]]:
    """One entrant per submission of a Gradescope export, and a line for each one left out.

    Submissions are found as ``gamegrader batch`` finds them (``harness.batch.discover``), and
    each one's files as a grading finds them (``harness.intake.submission.find_files``, with the
    assignment's ``wanted`` file names, the main file first): the entrant plays its main file
    and is fingerprinted by every file the grading would take. It is named as the export names
    its submitters, group members joined with "; "; a name two submissions share, or one of
    the ``reserved`` names (the house bots playing: a student named ``greedy`` against
    ``house:greedy``), gets the submission's folder name after it. A submission without the
    main file, or refused by the intake, is left out (and said so), not the whole class.
    """
    from harness.batch.discover import discover
    from harness.intake.submission import find_files

    entrants: list[Entrant] = []
    skipped: list[str] = []
    submissions = discover(folder)
    labels = [s.student_label for s in submissions]
    for submission, label in zip(submissions, labels):
        found = find_files(submission.path, wanted)
        main = found.files.get(wanted[0])
        if main is None:
            why = found.refused or f"no {wanted[0]}"
            skipped.append(f"{submission.path.name} ({label}): {why}")
            continue
        name = (label if labels.count(label) == 1 and label not in reserved else
                f"{label} ({submission.key})")
        code = code_fingerprint(found.layout().items())
        entrants.append(Entrant(name, _staged(main.data, wanted[0], staging), code))
    return entrants, skipped


def parse_entrants(words: list[str], wanted: tuple[str, ...], staging: Optional[Path] = None
                   ) -> list[Entrant]:
    """Every entrant the command-line ``words`` name: a Gradescope export folder stands for
    its submissions (:func:`export_entrants`; those left out are listed on stderr), any other
    word is read by :func:`parse_entrant`.

    Every entrant gets a name of its own (:func:`distinct_names`).

    Raises:
        ValueError: from :func:`parse_entrant`, or for an export with no playable submission.
    """
    entrants: list[Entrant] = []
    house = frozenset(filter(None, map(_house_name, words)))
    for word in words:
        if not is_export(Path(word)):
            entrants += parse_entrant(word, staging)
            continue
        found, skipped = export_entrants(Path(word), wanted, staging, house)
        for line in skipped:
            print(f"gamegrader tournament: left out {line}", file=sys.stderr)
        if not found:
            raise ValueError(f"{word}: no submission in this export holds {wanted[0]}")
        entrants += found
    return distinct_names(entrants)


def distinct_names(entrants: list[Entrant]) -> list[Entrant]:
    """``entrants`` with no name shared: house bots keep theirs, and a submission whose name
    a house bot or an earlier entrant has (two files ``player.py`` in different folders) plays
    as ``NAME (2)``, ``NAME (3)`` ... A student's name never stops a tournament nor takes a
    house bot's place in the standings."""
    taken = {entrant.name for entrant in entrants if entrant.is_house}
    named: list[Entrant] = []
    for entrant in entrants:
        name, number = entrant.name, 2
        while not entrant.is_house and name in taken:
            name, number = f"{entrant.name} ({number})", number + 1
        taken.add(name)
        named.append(replace(entrant, name=name) if name != entrant.name else entrant)
    return named


__all__ = ["distinct_names", "export_entrants", "is_export", "parse_entrant", "parse_entrants"]
