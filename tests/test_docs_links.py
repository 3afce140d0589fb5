"""Every relative link of the project's pages (README.md, docs/, each assignments/NAME/README.md)
names a file or folder that exists, and every page an assignment's folder holds is linked from
README.md: a page that moves takes its links along."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from gg_testing import ROOT
from test_docs_commands import pages

LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def relative_links(text: str) -> list[str]:
    """The link targets of ``text`` that name a path (no scheme, not an anchor of its own page),
    without their anchors."""
    targets = (inline or reference for inline, reference in LINK.findall(text))
    return [target.partition("#")[0] for target in targets
            if not re.match(r"[a-z]+:", target) and not target.startswith(("#", "/"))]


def test_links_are_read_inline_and_by_reference_without_anchors():
    text = "[a](../x.md#y) [b](https://e.org) [c](#z)\n[d]: docs/w.md"
    assert relative_links(text) == ["../x.md", "docs/w.md"]


@pytest.mark.parametrize("page", pages(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file(page: Path):
    missing = [target for target in relative_links(page.read_text(encoding="utf-8"))
               if not (page.parent / target).exists()]
    assert missing == []


def test_readme_links_every_assignments_page():
    linked = {(ROOT / target).resolve()
              for target in relative_links((ROOT / "README.md").read_text(encoding="utf-8"))}
    folders = sorted(ROOT.glob("assignments/*/README.md"))
    assert folders and [page for page in folders if page.resolve() not in linked] == []
