"""Finding the student's file in what Gradescope hands over."""
from __future__ import annotations

import pytest

from harness.intake.submission import find_files

pytestmark = pytest.mark.slow

WANTED = ("adversarial_search.py",)


def write(path, text="x = 1\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_exact_name_at_any_depth_wins_the_shallowest(tmp_path):
    write(tmp_path / "deep/er/adversarial_search.py")
    write(tmp_path / "deep/adversarial_search.py")
    found = find_files(tmp_path, WANTED)
    assert found.files["adversarial_search.py"].path.as_posix() == "deep/adversarial_search.py"
    assert "Found adversarial_search.py as deep/adversarial_search.py." in found.notes


def test_renamed_copies_are_recognised(tmp_path):
    renamed = write(tmp_path / "adversarial_search (1).py")
    write(tmp_path / "helper.py")
    found = find_files(tmp_path, WANTED)
    assert found.files["adversarial_search.py"].data == renamed.read_bytes() and not found.missing
    assert found.files["adversarial_search.py"].name == "adversarial_search (1).py"


def test_a_single_python_file_stands_in_and_macos_junk_is_ignored(tmp_path):
    only = write(tmp_path / "hw4.py")
    write(tmp_path / "__MACOSX/._hw4.py")
    assert find_files(tmp_path, WANTED).files["adversarial_search.py"].name == only.name


def test_missing_file_lists_what_was_submitted(tmp_path):
    write(tmp_path / "a.py")
    write(tmp_path / "b.py")
    found = find_files(tmp_path, WANTED)
    assert found.missing == ["adversarial_search.py"]
    assert "a.py, b.py" in found.notes[-1]


def test_a_file_path_is_graded_under_the_canonical_name(tmp_path):
    file = write(tmp_path / "mine.py")
    found = find_files(file, WANTED)
    assert list(found.files) == ["adversarial_search.py"]
    assert found.files["adversarial_search.py"].data == file.read_bytes()
    assert found.notes == ["Expected adversarial_search.py; graded mine.py as it."]


def test_of_renamed_copies_the_highest_copy_number_is_graded_and_the_rest_named(tmp_path):
    write(tmp_path / "adversarial_search (1).py", "one = 1\n")
    write(tmp_path / "adversarial_search (2).py", "two = 2\n")
    found = find_files(tmp_path, WANTED)
    assert found.files["adversarial_search.py"].data == b"two = 2\n"
    assert ("Ignored other copies of adversarial_search.py: adversarial_search (1).py (graded: "
            "adversarial_search (2).py, by the highest copy number, then the newest).") \
        in found.notes
    assert found.extras == {}  # the passed-over copy does not go along as a module


def test_the_exact_name_beats_any_copy_and_mtime_breaks_ties_between_copies(tmp_path):
    import os
    write(tmp_path / "adversarial_search (7).py")
    write(tmp_path / "adversarial_search.py", "exact = 1\n")
    assert find_files(tmp_path, WANTED).files["adversarial_search.py"].data == b"exact = 1\n"
    other = tmp_path / "other"
    old = write(other / "adversarial_search copy.py", "old = 1\n")
    write(other / "Adversarial-Search final.py", "new = 1\n")
    os.utime(old, (1_000_000, 1_000_000))
    assert find_files(other, WANTED).files["adversarial_search.py"].data == b"new = 1\n"


def test_other_python_files_go_along_relative_to_the_main_file(tmp_path):
    write(tmp_path / "hw" / "agent.py")
    write(tmp_path / "hw" / "tree.py", "TREE = 1\n")
    write(tmp_path / "hw" / "search" / "__init__.py", "")
    write(tmp_path / "hw" / "search" / "ab.py")
    write(tmp_path / "hw" / "othello_shared.py", "mine = 1\n")
    write(tmp_path / "scratch" / "notes.py")
    found = find_files(tmp_path, ("agent.py",), supplied=("othello_shared.py",))
    assert sorted(found.extras) == ["search/__init__.py", "search/ab.py", "tree.py"]
    assert sorted(found.layout()) == ["agent.py", "search/__init__.py", "search/ab.py",
                                      "tree.py"]
    assert "Also included (your other Python files): tree.py, search/__init__.py, " \
           "search/ab.py." in found.notes
    assert "The course's own copies of these starter files were used instead of yours: " \
           "othello_shared.py." in found.notes
    assert "Not included (outside the folder of agent.py): scratch/notes.py." in found.notes
    written = found.write_to(tmp_path / "staging")
    assert written["tree.py"].read_bytes() == b"TREE = 1\n"
    assert written["agent.py"] == tmp_path / "staging" / "agent.py"


def test_a_folder_named_like_a_supplied_module_is_left_out(tmp_path):
    """``othello_shared/__init__.py`` would be imported as a package instead of the course's
    ``othello_shared.py`` beside it (Python looks for a package first), so it never goes along;
    a folder named otherwise does."""
    write(tmp_path / "agent.py")
    write(tmp_path / "othello_shared" / "__init__.py", "def get_possible_moves(*a): return []\n")
    write(tmp_path / "othello_shared" / "more.py")
    write(tmp_path / "othello_sharedx" / "__init__.py", "")
    found = find_files(tmp_path, ("agent.py",), supplied=("othello_shared.py",))
    assert sorted(found.layout()) == ["agent.py", "othello_sharedx/__init__.py"]
    assert "The course's own copies of these starter files were used instead of yours: " \
           "othello_shared/__init__.py, othello_shared/more.py." in found.notes


def test_a_refused_submission_says_why_and_takes_nothing(tmp_path):
    from harness.intake.reading import Caps
    for index in range(3):
        write(tmp_path / f"m{index}.py")
    found = find_files(tmp_path, WANTED, caps=Caps(files=2))
    assert found.refused == "it holds more than 2 Python files"
    assert found.missing == ["adversarial_search.py"] and not found.files
    assert found.notes[0].startswith("Your submission was not graded: it holds more than 2 "
                                     "Python files (limits: 2 Python files")


HOSTILE_STEMS = ['"a" + "(1)" * 200_000', '"x" + " (1" * 200_000', '"y" + "1_" * 200_000 + "z"',
                 '"adversarial_search" + "1" * 300_000 + "x"', '"v" * 300_000 + "1"',
                 '"q" + "_copy" * 100_000 + "!"', '"\\t" * 300_000 + "(9)"']


def test_copy_suffix_matching_is_linear_on_long_hostile_names():
    """Each name is ~300k characters: a backtracking pattern would not finish in hours; the
    subprocess bound only guards against that, it measures nothing."""
    import subprocess
    import sys

    from gg_testing import ROOT
    code = ("import sys; from harness.intake.submission import parse_stem\n"
            f"for stem in [{', '.join(HOSTILE_STEMS)}]:\n"
            "    print(repr(parse_stem(stem)[0][:12]), parse_stem(stem)[1])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["'a' 1", "'x_(1_(1_(1_(' 1", "'y1_1_1_1_1_1' 0",
                                        "'adversarial_' 0", "'vvvvvvvvvvvv' 1", "'q_copy_copy_' 0",
                                        "'' 9"]


def test_stem_keys_of_renamed_downloads():
    from harness.intake.submission import parse_stem
    assert parse_stem("adversarial_search (2)") == ("adversarial_search", 2)
    assert parse_stem("agent copy 3") == ("agent", 3)
    assert parse_stem("Agent-final") == ("agent", 0)
    assert parse_stem("player_v2") == ("player", 2)
    assert parse_stem("stonehenge") == ("stonehenge", 0)


def test_a_folder_named_like_a_wanted_file_costs_only_its_own_files(tmp_path):
    write(tmp_path / "stonehenge.py")
    write(tmp_path / "other" / "strategy.py", "mine = 1\n")
    write(tmp_path / "strategy.py" / "inner.py")  # a folder, clashing with the canonical name
    found = find_files(tmp_path, ("stonehenge.py", "strategy.py"))
    written = found.write_to(tmp_path / "staging")
    assert sorted(written) == ["stonehenge.py", "strategy.py"]
    assert written["strategy.py"].read_bytes() == b"mine = 1\n"
    assert "Not included (its path clashes with another file): strategy.py/inner.py." \
        in found.notes


def test_a_checked_file_brings_its_folder_s_other_files_only_when_asked(tmp_path):
    main = write(tmp_path / "stonehenge (2).py", "main = 1\n")
    write(tmp_path / "stonehenge.py", "older = 1\n")
    write(tmp_path / "strategy.py")
    write(tmp_path / "tree.py")
    wanted = ("stonehenge.py", "strategy.py")
    alone = find_files(main, wanted)
    assert list(alone.files) == ["stonehenge.py"] and alone.extras == {}
    found = find_files(main, wanted, siblings=True)
    assert found.files["stonehenge.py"].data == b"main = 1\n"  # the file named, not the copy
    assert found.files["strategy.py"].name == "strategy.py" and not found.missing
    assert list(found.extras) == ["tree.py"]


def test_a_checked_file_named_as_another_handout_file_is_graded_as_that_file(tmp_path):
    """``check strategy.py`` is Stonehenge's strategy, not a misnamed ``stonehenge.py``; its
    folder's ``stonehenge.py`` goes along as itself."""
    strategy = write(tmp_path / "strategy (1).py", "strategy = 1\n")
    write(tmp_path / "stonehenge.py", "game = 1\n")
    wanted = ("stonehenge.py", "strategy.py")
    alone = find_files(strategy, wanted)
    assert list(alone.files) == ["strategy.py"] and alone.missing == ["stonehenge.py"]
    assert not any("Expected" in note for note in alone.notes)
    found = find_files(strategy, wanted, siblings=True)
    assert found.files["strategy.py"].data == b"strategy = 1\n"
    assert found.files["stonehenge.py"].data == b"game = 1\n" and not found.missing


def test_a_file_named_after_the_account_stands_in_for_the_one_file_wanted(tmp_path):
    """The isolation handout asks for ``player-<account>``: ``player_jdoe.py`` next to a test
    script of the student's is still the player (before: "Missing: player.py", 0 points)."""
    player = write(tmp_path / "player_jdoe.py", "me = 1\n")
    write(tmp_path / "test_player.py", "import player_jdoe\n")
    found = find_files(tmp_path, ("player.py",))
    assert found.files["player.py"].data == player.read_bytes() and not found.missing
    assert "Found player.py as player_jdoe.py." in found.notes
    # and it keeps its own name too: the student's test script imports it so (issue 50)
    assert list(found.extras) == ["player_jdoe.py", "test_player.py"]
    dashed = tmp_path / "dashed"
    write(dashed / "Player-jdoe.py", "me = 2\n")
    write(dashed / "notes.py")
    assert find_files(dashed, ("player.py",)).files["player.py"].data == b"me = 2\n"


def test_a_file_found_under_another_importable_name_keeps_that_name_too(tmp_path):
    """Issue 50: Stonehenge.py graded as stonehenge.py is also there as Stonehenge.py, for the
    student's own ``from Stonehenge import *``; a name no import can spell is not kept."""
    write(tmp_path / "Stonehenge.py", "game = 1\n")
    write(tmp_path / "strategy.py", "from Stonehenge import *\n")
    found = find_files(tmp_path, ("stonehenge.py", "strategy.py"))
    assert found.files["stonehenge.py"].data == found.extras["Stonehenge.py"].data == b"game = 1\n"
    assert "Also kept under its own name, for your files that import it so: Stonehenge.py." \
        in found.notes
    copies = tmp_path / "copies"
    write(copies / "stonehenge (2).py", "game = 2\n")
    write(copies / "strategy.py")
    assert list(find_files(copies, ("stonehenge.py", "strategy.py")).extras) == []


def test_a_suffixed_name_is_not_guessed_when_several_files_or_files_are_wanted(tmp_path):
    write(tmp_path / "player_jdoe.py")
    write(tmp_path / "player_helpers.py")
    assert find_files(tmp_path, ("player.py",)).missing == ["player.py"]
    both = tmp_path / "both"
    write(both / "strategy_helpers.py")
    write(both / "stonehenge.py")
    assert find_files(both, ("stonehenge.py", "strategy.py")).missing == ["strategy.py"]


def test_a_suffixed_file_without_py_is_named_with_the_name_to_give_it(tmp_path):
    write(tmp_path / "player-jdoe", "me = 1\n")
    found = find_files(tmp_path, ("player.py",))
    assert found.missing == ["player.py"]
    assert ("player-jdoe looks like player.py under another extension: only a name ending in .py"
            " is run (as `import player` needs); rename it to player-jdoe.py and submit again."
            ) in found.notes[-1]


def test_data_files_beside_the_code_are_named_as_not_given_to_it(tmp_path):
    """Code that opens weights.txt beside itself fails, as only Python files go along: the
    student is told which files, and how to keep the data, before any case runs."""
    write(tmp_path / "adversarial_search.py")
    write(tmp_path / "weights.txt", "1 2 3\n")
    write(tmp_path / "tables/book.json", "{}\n")
    write(tmp_path / "README.md", "notes\n")
    write(tmp_path / "adversarial_search.py.bak", "x = 1\n")
    note = next(n for n in find_files(tmp_path, WANTED).notes if n.startswith("Not given"))
    assert note.startswith("Not given to your code: weights.txt, tables/book.json. Only Python")
    assert "README.md" not in note and ".bak" not in note
    plain = tmp_path / "plain"
    write(plain / "adversarial_search.py")
    write(plain / "README.md", "notes\n")
    assert not [n for n in find_files(plain, WANTED).notes if n.startswith("Not given")]


def test_helper_modules_go_along_when_the_main_file_is_missing(tmp_path):
    """strategy.py imports its own node.py: with stonehenge.py missing, node.py still goes
    along (issue 39 item 8: the strategy lost 33 points and was told to submit node.py)."""
    write(tmp_path / "a2" / "strategy.py", "from node import Node\n")
    write(tmp_path / "a2" / "node.py", "class Node: pass\n")
    write(tmp_path / "a2" / "game.py", "mine = 1\n")
    found = find_files(tmp_path, ("stonehenge.py", "strategy.py"), supplied=("game.py",))
    assert found.missing == ["stonehenge.py"]
    assert sorted(found.layout()) == ["node.py", "strategy.py"]
    assert "Also included (your other Python files): node.py." in found.notes


def test_each_wanted_file_finds_the_helpers_of_its_own_folder(tmp_path):
    """stonehenge.py and strategy.py in different folders: every helper module is at its path
    relative to the folder it sits in, so each file imports its own helpers by their names; where
    the folders nest, a helper is at both paths; a file under neither stays out."""
    write(tmp_path / "game" / "stonehenge.py", "from board import Board\n")
    write(tmp_path / "game" / "board.py", "class Board: pass\n")
    write(tmp_path / "game" / "ai" / "strategy.py", "from trees_api import Tree\n")
    write(tmp_path / "game" / "ai" / "trees_api.py", "class Tree: pass\n")
    write(tmp_path / "scratch" / "notes.py")
    found = find_files(tmp_path, ("stonehenge.py", "strategy.py"))
    assert not found.missing
    assert sorted(found.layout()) == ["ai/trees_api.py", "board.py", "stonehenge.py",
                                      "strategy.py", "trees_api.py"]
    assert found.layout()["trees_api.py"] == b"class Tree: pass\n"
    assert ("Not included (outside the folders of stonehenge.py and strategy.py): "
            "scratch/notes.py.") in found.notes


def test_a_main_file_s_helper_wins_a_clash_with_another_folder_s(tmp_path):
    write(tmp_path / "one" / "stonehenge.py")
    write(tmp_path / "one" / "util.py", "main = 1\n")
    write(tmp_path / "two" / "strategy.py")
    write(tmp_path / "two" / "util.py", "strategy = 1\n")
    found = find_files(tmp_path, ("stonehenge.py", "strategy.py"))
    assert found.layout()["util.py"] == b"main = 1\n"
