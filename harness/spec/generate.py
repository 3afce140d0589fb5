"""Expand ``generate`` blocks into ``generated/*.yaml`` using the reference (trusted) generators.

Generated files are never edited by hand: re-run ``gamegrader generate NAME`` whenever the
reference or a block's settings change. ``--check`` reports files that are out of date.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from harness.records.spec import Assignment
from harness.spec.errors import SpecError
from harness.spec.loader import (
    generated_path,
    generated_source,
    own_entries,
    precomputed_path,
    read_case_file,
)
from harness.spec.registry import resolve_generator, resolve_precompute


class _BlockText(yaml.SafeDumper):
    """Writes multi-line strings (transcripts) as YAML block scalars, so they stay readable."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockText.add_representer(str, _text)


def render_block(case_file: Path, block: dict[str, Any]) -> str:
    """The text of one generated file for ``block`` of ``case_file``.

    Raises:
        SpecError: the generator cannot be found or yields malformed cases.
    """
    try:
        generator = resolve_generator(block["generator"])
    except LookupError as exc:
        raise SpecError(case_file, str(exc), case=block["id"], field="generator") from exc
    cases = []
    for entry in generator(random.Random(block["seed"]), block["count"], **block.get("params", {})):
        if not isinstance(entry, dict) or not {"name", "doctest"} <= entry.keys():
            raise SpecError(case_file, f"generator yielded {entry!r}; expected a dict with "
                            "'name' and 'doctest'", case=block["id"], field="generator")
        cases.append({key: entry[key] for key in ("name", "doctest", "options", "stdin", "tags",
                                                     "mirror_of")
                      if key in entry})
    header = "# Written by 'gamegrader generate' from the reference. Do not edit by hand.\n"
    body = {"source": generated_source(block), "cases": cases}
    return header + yaml.dump(body, Dumper=_BlockText, sort_keys=False, allow_unicode=True,
                              width=100)


def render_precomputed(case_file: Path) -> str | None:
    """The text of ``case_file``'s precomputed answers: for each of its own cases (hand-written
    or generated) naming a ``precompute`` function, what that trusted function returns for the
    case's options, so that the case's comparator needs no reference code (the student package
    ships it). None when no case names one.

    Raises:
        SpecError: the function cannot be found or returns something other than a mapping.
    """
    answers = []
    for entry in own_entries(case_file):
        if "precompute" not in entry:
            continue
        try:
            function = resolve_precompute(entry["precompute"])
        except LookupError as exc:
            raise SpecError(case_file, str(exc), case=entry["name"], field="precompute") from exc
        options = entry.get("options", {})
        data = function(options)
        if not isinstance(data, dict):
            raise SpecError(case_file, f"{entry['precompute']} returned {data!r}; expected a "
                            "mapping", case=entry["name"], field="precompute")
        answers.append({"name": entry["name"], "precompute": entry["precompute"],
                        "options": options, "data": data})
    if not answers:
        return None
    header = ("# Written by 'gamegrader generate' from the reference (the answers the cases' "
              "comparators read). Do not edit by hand.\n")
    return header + yaml.dump({"cases": answers}, Dumper=_BlockText, sort_keys=False,
                              allow_unicode=True, width=100)


def _update(target: Path, text: str | None, check: bool) -> bool:
    """Write ``text`` to ``target`` (None: remove it) unless it is there already; with
    ``check`` only tell. Returns whether the file was (or would be) changed."""
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    if current == text:
        return False
    if not check:
        if text is None:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    return True


def generate(assignment: Assignment, *, check: bool = False) -> list[Path]:
    """Write (or, with ``check``, compare) every generated file of ``assignment``.

    Returns:
        The files written, or with ``check`` the files that are missing or out of date.

    Raises:
        SpecError: a case file breaks its schema (a typo in a key is never skipped silently).
    """
    changed = []
    for case_file in assignment.case_files:
        data = read_case_file(case_file)
        for block in data.get("generate", []):
            target = generated_path(case_file, block["id"])
            if _update(target, render_block(case_file, block), check):
                changed.append(target)
        # after the blocks: generated cases may name a precompute function too
        target = precomputed_path(case_file)
        if _update(target, render_precomputed(case_file), check):
            changed.append(target)
    return changed
