"""The splice tool that copies the shared Dominoes section into our single-file solution."""
from __future__ import annotations

import textwrap

import pytest

from assignments.search_and_games.splice import (
    BEGIN_PREFIX,
    END_LINE,
    SPLICES,
    Splice,
    extract_definitions,
    import_keys,
    render,
    replace_region,
    stale,
)

SOURCE = textwrap.dedent('''\
    """Module docstring, left behind."""
    from __future__ import annotations

    import random
    import heapq
    from itertools import count as counter

    LIMIT = 3


    def helper(x):
        return min(x, LIMIT)


    def unrelated():
        return heapq.nsmallest(1, [2])


    @staticmethod
    def decorated():
        return counter()


    class Game(object):

        def move(self):
            # a comment inside is kept
            return helper(random.random())


    def create_game():
        return Game()


    feedback = "left behind"
    ''')


def test_extract_takes_definitions_their_dependencies_and_used_imports_only():
    assert extract_definitions(SOURCE, ["create_game"]) == textwrap.dedent('''\
        import random


        LIMIT = 3


        def helper(x):
            return min(x, LIMIT)


        class Game(object):

            def move(self):
                # a comment inside is kept
                return helper(random.random())


        def create_game():
            return Game()
        ''')


def test_extract_keeps_decorators_and_from_imports():
    assert extract_definitions(SOURCE, ["decorated"]) == (
        "from itertools import count as counter\n\n\n"
        "@staticmethod\ndef decorated():\n    return counter()\n")


def test_extract_leaves_out_imports_the_destination_has():
    present = import_keys("import os\nimport random\n")
    assert not extract_definitions(SOURCE, ["create_game"], present).startswith("import")


def test_extracted_text_runs_on_its_own():
    namespace: dict = {}
    exec(compile(extract_definitions(SOURCE, ["create_game"]), "<extract>", "exec"), namespace)
    assert 0 <= namespace["create_game"]().move() <= 1


def test_extract_names_missing_definitions():
    with pytest.raises(ValueError, match="Missing, Other"):
        extract_definitions(SOURCE, ["Game", "Missing", "Other"])


TARGET = f"head\n{BEGIN_PREFIX}old/path.py\nold body\n{END_LINE}\ntail\n"


def test_replace_region_rewrites_only_between_the_markers():
    assert replace_region(TARGET, "new/path.py", "x = 1\n") == \
        f"head\n{BEGIN_PREFIX}new/path.py\nx = 1\n{END_LINE}\ntail\n"


def test_replace_region_is_idempotent():
    once = replace_region(TARGET, "p.py", "x = 1\n")
    assert replace_region(once, "p.py", "x = 1\n") == once


@pytest.mark.parametrize("text", [
    "no markers\n",
    f"{END_LINE}\n{BEGIN_PREFIX}p.py\n",
    f"{BEGIN_PREFIX}p.py\n{END_LINE}\n{BEGIN_PREFIX}q.py\n{END_LINE}\n",
])
def test_replace_region_refuses_bad_markers(text):
    with pytest.raises(ValueError, match="expected one"):
        replace_region(text, "p.py", "")


def test_render_and_stale_on_a_scratch_tree(tmp_path):
    (tmp_path / "source.py").write_text(SOURCE)
    (tmp_path / "target.py").write_text("import random\n" + TARGET)
    splice = Splice("target.py", "source.py", ("helper", "Game"))
    assert stale([splice], tmp_path) == ["target.py"]
    (tmp_path / "target.py").write_text(render(splice, tmp_path))
    assert stale([splice], tmp_path) == []
    text = (tmp_path / "target.py").read_text()
    assert "def helper(x)" in text and text.count("import random") == 1


def test_committed_regions_are_up_to_date():
    assert stale(SPLICES) == [], "run: python -m assignments.search_and_games.splice --write"
