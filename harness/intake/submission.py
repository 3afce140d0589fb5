"""Find the student's files in a submission and lay them out as the sandbox will see them.

The submission is read once, bounded and without following links (``harness.intake.reading``); every
decision here is made on that snapshot. The rule for each wanted file (docs/workflows.md):

1. a file with exactly the wanted name (the shallowest; then by path);
2. else a renamed copy (``agent (2).py``, ``agent copy 2.py``, ``Agent-final.py``): the highest
   copy number, then the newest modification time, then the shallowest;
3. else, when one file is wanted, the one file named the wanted name followed by a separator and
   more (``player_jdoe.py``, ``player-jdoe.py``: a handout that asks for ``player-<account>``
   names files so), when exactly one file is;
4. else, when one file is wanted and exactly one Python file was submitted, that file.

Every other Python file in the folder of any wanted file found (and below it) goes along at its
path relative to that folder, so ``import tree`` works as it did on the student's machine, from
every wanted file, whichever of them is missing; files the course supplies (``supplied``) are
left to the course's copies. A wanted file found under another importable name (``Game.py``)
goes along under that name too, so the student's own ``from Stonehenge import *`` still works.
Whatever was not used is named in the notes.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness.intake.reading import (
    DEFAULT_CAPS,
    Caps,
    Snapshot,
    SubmittedFile,
    display_name,
    size_text,
    take,
)
from harness.paths import checker_paths

_SEPARATORS = "-_ "
_COPY_WORDS = ("copy", "final")
_MAX_COPY_DIGITS = 9  # a longer "copy number" is not a copy number
_MAX_LISTED = 12


def _digits_start(text: str, end: int) -> int:
    """Where the run of decimal digits ending at ``end`` starts (``end`` if there is none)."""
    start = end
    while start > 0 and text[start - 1].isdecimal():
        start -= 1
    return start


def _strip_copy_marker(stem: str, end: int) -> tuple[int, int | None] | None:
    """Remove one copy marker from ``stem[:end]``: `` (2)``, ``_copy``, ``final``, ``-v3``,
    ``2``. Returns the new end and the marker's number (None without one), or None when
    ``stem[:end]`` ends in no marker. Looks only at the characters it removes, plus one."""
    if end > 0 and stem[end - 1] == ")":
        digits = _digits_start(stem, end - 1)
        if digits < end - 1 and digits > 0 and stem[digits - 1] == "(":
            cut = digits - 1
            while cut > 0 and stem[cut - 1].isspace():
                cut -= 1
            return cut, _copy_number(stem[digits:end - 1])
        return None
    number = None
    for word in _COPY_WORDS:
        if end >= len(word) and stem[end - len(word):end].lower() == word:
            cut = end - len(word)
            break
    else:
        cut = _digits_start(stem, end)
        if cut == end:
            return None
        number = _copy_number(stem[cut:end])
        if cut > 0 and stem[cut - 1] in "vV":
            cut -= 1
    if cut > 0 and stem[cut - 1] in _SEPARATORS:
        cut -= 1
    return cut, number


def _copy_number(digits: str) -> int | None:
    return int(digits) if len(digits) <= _MAX_COPY_DIGITS else None


def parse_stem(stem: str) -> tuple[str, int]:
    """A file stem's key (copy markers removed, lower case, spaces and dashes as underscores)
    and its copy number (the last marker's number; 0 without one).

    Linear in the stem's length whatever it holds: each step removes what it looked at.
    """
    end, number = len(stem), None
    while True:
        stripped = _strip_copy_marker(stem, end)
        if stripped is None:
            break
        end = stripped[0]
        if number is None:
            number = stripped[1]
    key = stem[:end].strip().lower().replace(" ", "_").replace("-", "_")
    return key, number or 0


def stem_key(stem: str) -> str:
    """The name a file stands for once copy markers are removed (``agent (1)`` -> ``agent``)."""
    return parse_stem(stem)[0]


def _listing(items: list[str]) -> str:
    shown = ", ".join(items[:_MAX_LISTED])
    return shown + (f" and {len(items) - _MAX_LISTED} more" if len(items) > _MAX_LISTED else "")


def _shown(path: PurePosixPath) -> str:
    return display_name(str(path))


@dataclass
class FoundFiles:
    """Which submitted file stands for each wanted name, the other files that go along, and
    notes for the student.

    Attributes:
        files: wanted name (e.g. ``agent.py``) -> the submitted file graded as it.
        extras: path inside the case folder -> another Python file of the student's.
        missing: wanted names nothing stands for.
        notes: what the student should know (renamed or ignored files, extra files included).
        refused: why the submission cannot be graded at all, e.g. "it holds more than 500
            Python files" ("" when it can); the notes explain it to the student.
    """

    files: dict[str, SubmittedFile] = field(default_factory=dict)
    extras: dict[str, SubmittedFile] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: str = ""

    def layout(self) -> dict[str, bytes]:
        """Path inside the case folder -> content: the wanted files under their handout names
        first (they always win), then the extras."""
        contents = {name: file.data for name, file in self.files.items()}
        for name, file in self.extras.items():
            contents.setdefault(name, file.data)
        return contents

    def write_to(self, folder: Path) -> dict[str, Path]:
        """Write ``layout()`` below ``folder`` (a private, trusted folder) and return the map
        from names inside the case folder to the written files, for the sandbox to copy."""
        written = {}
        for name, data in self.layout().items():
            parts = PurePosixPath(name).parts
            if not parts or any(p in ("", ".", "..") for p in parts):
                continue  # never produced by intake; refuse rather than escape ``folder``
            target = folder.joinpath(*parts)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                                     0o600)
            except OSError:  # e.g. a folder named like a module beside that module: first wins
                self.notes.append(f"Not included (its path clashes with another file): "
                                  f"{display_name(name)}.")
                continue
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
            written[name] = target
        return written


def _pick(candidates: list[SubmittedFile], name: str, alone: bool
          ) -> tuple[SubmittedFile | None, str]:
    """The file standing for ``name`` among ``candidates`` by the module's rule, and how;
    ``alone``: ``name`` is the only file wanted (a suffixed name then stands for it too)."""
    exact = [f for f in candidates if f.name == name]
    if exact:
        return min(exact, key=lambda f: (len(f.path.parts), str(f.path))), "exact"
    key = stem_key(PurePosixPath(name).stem)
    copies = [f for f in candidates if stem_key(f.path.stem) == key]
    if copies:
        return min(copies, key=lambda f: (-parse_stem(f.path.stem)[1], -f.mtime,
                                          len(f.path.parts), str(f.path))), "copy"
    suffixed = [f for f in candidates if _is_suffixed(f.path.stem, key)]
    if alone and len(suffixed) == 1:
        return suffixed[0], "suffixed"
    return None, ""


def _is_suffixed(stem: str, key: str) -> bool:
    """Whether ``stem`` is the name ``key`` followed by a separator and more (``player-jdoe``)."""
    return stem_key(stem).startswith(key + "_")


def _describe_rule(how: str) -> str:
    return ("the exact name, the shallowest" if how == "exact" else
            "the highest copy number, then the newest")


def find_files(submission: Path, wanted: tuple[str, ...], supplied: tuple[str, ...] = (),
               caps: Caps = DEFAULT_CAPS, siblings: bool = False) -> FoundFiles:
    """Match each wanted file name (first = the main file) to a submitted file.

    A path to a file stands for the wanted name it has (``strategy.py``, ``strategy (1).py``),
    else for the first wanted name; with ``siblings`` (a student's local
    ``check``, never a grading of someone else's file) the other Python files of its folder
    are then treated as a folder submission's. In a folder the module's rule applies, and every
    other Python file in the main file's folder goes along (``supplied`` names excepted: the
    course's copies of those are used, and a folder named like one of them is left out, since
    Python would import it as a package instead of the course's module).
    """
    snapshot = take(submission, caps, checker_paths())
    result = FoundFiles()
    if not snapshot.exists:
        result.missing.extend(wanted)
        result.notes.append(f"Nothing was found at {display_name(str(submission), 200)}.")
        return result
    if snapshot.refused:
        result.missing.extend(wanted)
        result.refused = snapshot.refused
        result.notes.append(
            f"Your submission was not graded: {snapshot.refused} (limits: {caps.files} Python "
            f"files of at most {size_text(caps.file_bytes)} each, {size_text(caps.total_bytes)}"
            f" in all, {caps.entries} entries, folders {caps.depth} deep). Submit only your "
            "code.")
        return result
    if snapshot.ignored:
        result.notes.append(f"Not taken from your submission: {_listing(snapshot.ignored)}.")
    if snapshot.is_file:
        _single_file(snapshot, wanted, result)
        if siblings and result.files:
            _with_siblings(Path(submission), wanted, supplied, caps, result)
    else:
        _folder(snapshot, wanted, supplied, result)
    return result


def _with_siblings(file: Path, wanted: tuple[str, ...], supplied: tuple[str, ...], caps: Caps,
                   result: FoundFiles) -> None:
    """A student's local check of one file: the other Python files of its folder go along, as
    they would in a folder submission (nothing is added if that folder is over the caps)."""
    folder = take(Path(os.path.realpath(file)).parent, caps, checker_paths())
    if folder.refused or not folder.exists:
        return
    (name, chosen), = result.files.items()
    result.missing = []
    _folder(folder, wanted, supplied, result, chosen=(name, chosen))


def _single_file(snapshot: Snapshot, wanted: tuple[str, ...], result: FoundFiles) -> None:
    if not snapshot.files:
        result.missing.extend(wanted)
        return
    file = snapshot.files[0]
    keys = {name: stem_key(PurePosixPath(name).stem) for name in wanted}
    slot = next((name for name in wanted if stem_key(file.path.stem) == keys[name]), wanted[0])
    result.files[slot] = file
    result.missing.extend(name for name in wanted if name != slot)
    if file.name == slot:
        return
    if stem_key(file.path.stem) == keys[slot] or (
            len(wanted) == 1 and _is_suffixed(file.path.stem, keys[slot])):
        result.notes.append(f"Graded {_shown(file.path)} as {slot}.")
    else:  # not a name the handout gives: say which one it does
        result.notes.append(f"Expected {slot}; graded {_shown(file.path)} as it.")


def _folder(snapshot: Snapshot, wanted: tuple[str, ...], supplied: tuple[str, ...],
            result: FoundFiles, chosen: tuple[str, SubmittedFile] | None = None) -> None:
    """Apply the rule in a folder; ``chosen``, if given, is a wanted name and the file already
    chosen for it (a file named on the command line, at the top of the folder)."""
    candidates = sorted(snapshot.files, key=lambda f: (len(f.path.parts), str(f.path)))
    passed_over: list[SubmittedFile] = []
    if chosen is not None:
        name, file = chosen
        candidates = [f for f in candidates if f.path != file.path]
        result.files[name] = file
    for name in wanted:
        if name in result.files:
            passed_over.extend(_copies_of(name, candidates))
            continue
        choice, how = _pick(candidates, name, len(wanted) == 1)
        if choice is None and len(wanted) == 1 and len(candidates) == 1:
            choice, how = candidates[0], "only"
        if choice is None:
            result.missing.append(name)
            continue
        result.files[name] = choice
        if str(choice.path) != name:
            result.notes.append(f"Found {name} as {_shown(choice.path)}.")
        if how in ("exact", "copy"):
            others = [f for f in _copies_of(name, candidates) if f is not choice]
            passed_over.extend(others)
            if others:
                result.notes.append(
                    f"Ignored other copies of {name}: {_listing([_shown(f.path) for f in others])}"
                    f" (graded: {_shown(choice.path)}, by {_describe_rule(how)}).")
    if result.missing:
        listing = _listing([_shown(f.path) for f in candidates]) or "none"
        other_files = _other_files(snapshot.others, result.missing, len(wanted) == 1)
        result.notes.append(f"Missing: {', '.join(result.missing)}. Python files submitted: "
                            f"{listing}.{other_files}")
    found = [result.files[name] for name in wanted if name in result.files]
    if found:
        _add_extras(candidates, found, wanted, supplied, passed_over, result)
        _note_data_files(snapshot.others, found[0].path.parent, result)


def _other_files(others: list[PurePosixPath], missing: list[str], alone: bool) -> str:
    """The rest of the "missing" note: the submitted files that are not Python files by their
    name, and a hint for those that are a missing file under another extension (``agent.PY``,
    ``agent.py.txt`` as editors save it, ``agent.zip``; with ``alone``, the one wanted file, also
    ``player-jdoe`` for ``player.py``): the grader, like the course's own tests (``import
    agent``), takes only names ending in ``.py``."""
    if not others:
        return ""
    text = f" Other files submitted: {_listing([_shown(p) for p in others])}."
    for name in missing:
        key = stem_key(PurePosixPath(name).stem)
        near = [p for p in others if stem_key(p.name.split(".")[0]) == key]
        suffixed = [p for p in others if _is_suffixed(p.name.split(".")[0], key)]
        if near or (alone and suffixed):
            shown = near[0] if near else suffixed[0]
            new_name = name if near else f"{shown.name.split('.')[0]}.py"
            text += (f" {_shown(shown)} looks like {name} under another extension: only a "
                     f"name ending in .py is run (as `import {PurePosixPath(name).stem}` "
                     f"needs); rename it to {new_name} and submit again.")
    if any(p.suffix.lower() == ".zip" for p in others):
        text += " A zip file inside your submission is not unpacked: submit the .py files."
    return text


DATA_SUFFIXES = frozenset({".txt", ".json", ".csv", ".tsv", ".dat", ".yaml", ".yml", ".pkl",
                           ".pickle", ".npy", ".npz"})
"""Files a student's code may open beside its module (weights, tables, an opening book)."""


def _note_data_files(others: list[PurePosixPath], home: PurePosixPath,
                     result: FoundFiles) -> None:
    """Name the data files submitted in the main file's folder: they are never given to the
    student's code (only Python files are graded, as the handouts ask for Python files alone),
    so code that opens one fails; the student learns it here, and how to keep the data."""
    data = [p for p in others if p.suffix.lower() in DATA_SUFFIXES
            and (home == PurePosixPath() or home in p.parents)]
    if data:
        result.notes.append(
            f"Not given to your code: {_listing([_shown(p) for p in data])}. Only Python files "
            "are graded, so code that opens these files will not find them: put such data in a "
            "Python file (for example WEIGHTS = [...] in weights.py) and import it.")


def _copies_of(name: str, candidates: list[SubmittedFile]) -> list[SubmittedFile]:
    """The candidates named ``name`` or a renamed copy of it."""
    key = stem_key(PurePosixPath(name).stem)
    return [f for f in candidates if f.name == name or stem_key(f.path.stem) == key]


def _homes(found: list[SubmittedFile]) -> list[PurePosixPath]:
    """The folders of the wanted files found (the main file's first), each once."""
    homes: list[PurePosixPath] = []
    for file in found:
        if file.path.parent not in homes:
            homes.append(file.path.parent)
    return homes


def _add_extras(candidates: list[SubmittedFile], found: list[SubmittedFile],
                wanted: tuple[str, ...], supplied: tuple[str, ...],
                passed_over: list[SubmittedFile], result: FoundFiles) -> None:
    """Every other Python file below the folder of any wanted file found, at its path relative
    to that folder (to each such folder, when they nest), because each wanted file runs from the
    top of the case folder: a wanted file in ``b/`` importing ``node`` finds ``b/node.py``
    whether or not the other wanted files were found, or found elsewhere. The main file's folder
    comes first, so its paths win a clash."""
    homes = _homes(found)
    # A wanted file found under another importable name (``Game.py`` for game.py)
    # also goes along under its own: the student's other files import it by that name.
    renamed = {id(f) for name, f in result.files.items() if f.name != name
               and PurePosixPath(f.name).stem.isidentifier()}
    used = ({id(f) for f in result.files.values()} - renamed) | {id(f) for f in passed_over}
    # A folder named like a supplied module (``othello_shared/__init__.py``) is a package, which
    # Python imports before the module of that name beside it: it would stand in for ours.
    packages = {PurePosixPath(name).stem for name in supplied if name.endswith(".py")}
    included: list[str] = []
    kept: list[str] = []
    replaced: list[str] = []
    outside: list[str] = []
    for file in candidates:
        if id(file) in used:
            continue
        paths = [file.path.relative_to(home) for home in homes
                 if home == PurePosixPath() or home in file.path.parents]
        if not paths:
            outside.append(_shown(file.path))
        for path in paths:
            relative = str(path)
            if relative in supplied or (len(path.parts) > 1 and path.parts[0] in packages):
                replaced.append(relative)
            elif relative not in wanted and relative not in result.extras:
                result.extras[relative] = file
                (kept if id(file) in renamed else included).append(
                    _shown(PurePosixPath(relative)))
    if kept:
        result.notes.append(f"Also kept under its own name, for your files that import it so: "
                            f"{_listing(kept)}.")
    if included:
        result.notes.append(f"Also included (your other Python files): {_listing(included)}.")
    if replaced:
        shown = [display_name(r) for r in dict.fromkeys(replaced)]
        result.notes.append("The course's own copies of these starter files were used instead "
                            f"of yours: {_listing(shown)}.")
    if outside:
        owners = " and ".join(name for name in wanted if name in result.files)
        result.notes.append(f"Not included (outside the folder{'s' if len(homes) > 1 else ''} "
                            f"of {owners}): {_listing(outside)}.")
