"""Test statistics (failure messages grouped per test) and regrade diffs, from results
documents made with chosen verdicts (no grading needed), and ``gamegrader diff``."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest
from gg_testing import run_gamegrader

from harness.batch import store
from harness.batch.discover import Student, Submission
from harness.batch.failures import (
    failure_groups,
    pattern_of,
    reason_groups,
    reason_of,
    write_failures_csv,
)
from harness.batch.insight_pages import changes_section
from harness.batch.jobs import JobResult
from harness.batch.regrade import compare_batches, render_changes
from harness.grading import results as results_file
from harness.records.verdicts import CaseResult, Verdict
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

CASES = load_all_cases(find_assignment("adversarial_search"))
BEST_MOVE = [c for c in CASES if c.points > 0][:3]
LOWER = "move right; value right; leaf count differs (yours: {}), lower than the reference's"


def graded(name: str, verdicts: dict[str, tuple[Verdict, str]]) -> store.Record:
    """A record in which the named cases fail with the given message; the rest pass."""
    results = [CaseResult(c, verdicts[c.id][0], 0.0, verdicts[c.id][1]) if c.id in verdicts
               else CaseResult(c, Verdict.PASSED, c.points) for c in CASES]
    document = results_file.build(results, output="", execution_time=1.0)
    return store.Record(Submission(name, Path(name), (Student(name.title()),)), document, 1.0, "")


def save(out: Path, record: store.Record) -> None:
    store.save(out, record.submission, JobResult(record.submission.key, record.document, "", 1.0),
               "fingerprint")


def test_a_case_s_own_numbers_and_values_do_not_split_a_group():
    first = pattern_of("Wrong answer (0/0.5 points)\n" + LOWER.format(0))
    assert first == pattern_of("Wrong answer (0.25/0.5 points)\n" + LOWER.format(17))
    assert first == ("Wrong answer: move right; value right; leaf count differs (yours: …), "
                     "lower than the reference's")
    assert pattern_of("Timed out (0/1 points)\nstopped after 2.5 s") == \
        "Timed out: stopped after N s"
    assert pattern_of("Raised (0/1 points)\nYour code printed:\nhello") == "Raised"


def test_a_reason_says_its_verdict_once():
    stopped = ("Not run (0/0.5 points)\nnot run: DominoesGame.get_best_move ran out of time in "
               "the earlier case 'x' and in each get_best_move case after it")
    assert pattern_of(stopped) == ("Not run: DominoesGame.get_best_move ran out of time in the "
                                   "earlier case '…' and in each get_best_move case after it")


def test_a_reason_is_what_was_wrong_not_the_call_and_a_diagnosis_first():
    """The batch report said "Wrong answer: >>> g.get_best_move(True, 3)" for every failure of a
    test: the call, not the reason. A named mistake groups failures across tests."""
    wrong = "Wrong answer (0/0.5 points)\n>>> g.get_best_move(True, 3)\n  " + LOWER.format(4)
    assert pattern_of(wrong) == pattern_of("Wrong answer (0/0.5 points)\n" + LOWER.format(0))
    assert reason_of(wrong) == pattern_of(wrong)
    diagnosed = wrong + "\nLikely mistake: alpha-beta searching one ply past the limit."
    assert reason_of(diagnosed) == "Likely mistake: alpha-beta searching one ply past the limit."


def test_reasons_group_failures_across_tests_and_leave_the_ungradable_apart():
    one, two = BEST_MOVE[0].id, BEST_MOVE[1].id
    records = [graded("ann", {one: (Verdict.WRONG_ANSWER, LOWER.format(3)),
                              two: (Verdict.WRONG_ANSWER, LOWER.format(5))}),
               graded("ben", {two: (Verdict.WRONG_ANSWER, LOWER.format(1)),
                              one: (Verdict.TIMED_OUT, "stopped after 5 s")})]
    blocked = results_file.build(results_file.not_run(CASES, "not run: SyntaxError"),
                                 output="", execution_time=0, extra={"ungradable": "syntax"})
    records.append(store.Record(Submission("cid", Path("cid"), (Student("Cid"),)), blocked,
                                1.0, ""))
    groups = reason_groups(records)
    assert [(len(g.students), len(g.tests), g.failures) for g in groups] == [(2, 2, 3), (1, 1, 1)]
    assert groups[0].students == ("Ann", "Ben") and "lower than the reference" in groups[0].reason
    assert groups[0].submissions == ("ann", "ben")
    assert all("Cid" not in g.students for g in groups)
    assert all("Cid" not in g.students for g in failure_groups(records))


def test_failures_are_counted_per_test_and_message_most_common_first(tmp_path):
    one, two = BEST_MOVE[0].id, BEST_MOVE[1].id
    records = [
        graded("ann", {one: (Verdict.WRONG_ANSWER, LOWER.format(3))}),
        graded("ben", {one: (Verdict.WRONG_ANSWER, LOWER.format(9)),
                       two: (Verdict.TIMED_OUT, "stopped after 5 s")}),
        graded("cid", {one: (Verdict.RAISED, "raised IndexError: list index out of range")}),
        graded("dee", {}),
    ]
    groups = failure_groups(records)
    first = [g for g in groups if g.test == BEST_MOVE[0].title]
    assert [(g.count, g.students) for g in first] == [(2, ("Ann", "Ben")), (1, ("Cid",))]
    assert "lower than the reference" in first[0].pattern
    assert sum(g.count for g in groups) == 4
    write_failures_csv(tmp_path / "failures.csv", groups)
    rows = list(csv.DictReader((tmp_path / "failures.csv").open(encoding="utf-8")))
    assert [int(r["students"]) for r in rows] == [g.count for g in groups]
    assert rows[0]["who"] == "Ann; Ben"


def test_regrade_lists_exactly_whose_score_or_tests_changed(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    one = BEST_MOVE[0].id
    for record in (graded("ann", {one: (Verdict.WRONG_ANSWER, "x")}), graded("ben", {}),
                   graded("cid", {one: (Verdict.WRONG_ANSWER, "x")}), graded("eve", {})):
        save(old, record)
    for record in (graded("ann", {}), graded("ben", {}),
                   graded("cid", {one: (Verdict.TIMED_OUT, "x")}), graded("dee", {})):
        save(new, record)
    changes = {c.key: c for c in compare_batches(old, new)}
    assert set(changes) == {"ann", "cid", "dee", "eve"}  # ben is unchanged
    assert changes["ann"].delta == BEST_MOVE[0].points
    assert [t.name for t in changes["ann"].tests] == [BEST_MOVE[0].title]
    assert changes["ann"].tests[0].old.status == "failed"
    assert changes["ann"].tests[0].new.status == "passed"
    assert changes["cid"].delta == 0  # same points, another verdict
    assert [(t.old.verdict, t.new.verdict) for t in changes["cid"].tests] == [
        ("wrong answer", "timed out")]
    assert changes["dee"].old_score is None and changes["dee"].new_score is not None
    text = render_changes(list(changes.values()))
    assert "Ann [ann]" in text and "Ben" not in text
    # A new or removed submission is one line, not one line per test.
    full = f"{changes['dee'].new_score:g}"
    assert [line for line in text.splitlines() if "dee" in line.lower()] == [
        f"  Dee [dee]: new: {full}"]
    assert [line for line in text.splitlines() if "eve" in line.lower()] == [
        f"  Eve [eve]: removed (was {full})"]
    assert len(text.splitlines()) == 1 + 4 + 1 + 1  # the heading, 4 students, 2 tests


def test_diff_command_prints_the_changes_and_refuses_a_folder_that_is_not_a_batch(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    save(old, graded("ann", {BEST_MOVE[0].id: (Verdict.WRONG_ANSWER, "x")}))
    save(new, graded("ann", {}))
    done = run_gamegrader("diff", str(old), str(new), "--csv", str(tmp_path / "changes.csv"))
    assert done.returncode == 0, done.stderr
    assert "1 submission changed" in done.stdout and "Ann [ann]" in done.stdout
    rows = list(csv.DictReader((tmp_path / "changes.csv").open(encoding="utf-8")))
    assert len(rows) == 1 and rows[0]["old"].endswith("(wrong answer)")
    assert rows[0]["new"].endswith("(passed)")
    refused = run_gamegrader("diff", str(tmp_path), str(new))
    assert refused.returncode == 2 and "not a batch output folder" in refused.stderr


def test_a_run_not_asked_for_similarity_or_changes_leaves_none_from_an_earlier_run(tmp_path):
    """A re-run on the same folder without --similarity or --compare: the similarity pages and
    CSV files of the earlier run are gone (a file of the instructor's own in the folder stays);
    a run listing fewer pairs leaves no page of a pair it no longer lists."""
    from harness.batch.insight_pages import write_similarity_pages
    from harness.batch.insights import InsightOptions, write_insights

    stale = ["changes.csv", "similarity.csv", "similarity.html", "similarity/pair-001.html",
             "similarity/pair-012.html"]
    for name in [*stale, "similarity/my-notes.txt"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("from the run before\n", encoding="utf-8")
    sections = write_insights(tmp_path, [], find_assignment("adversarial_search"),
                              InsightOptions())
    assert [name for name in stale if (tmp_path / name).exists()] == []
    assert (tmp_path / "similarity" / "my-notes.txt").exists()
    assert [anchor for anchor, _, _ in sections] == ["mistakes"]
    (tmp_path / "similarity" / "pair-002.html").write_text("old pair\n", encoding="utf-8")
    write_similarity_pages(tmp_path, [], "adversarial_search")
    assert not (tmp_path / "similarity" / "pair-002.html").exists()
    assert (tmp_path / "similarity.html").exists()


def test_changes_show_points_with_at_most_two_decimals_and_the_csv_keeps_them_exact(tmp_path):
    """Issue 53: the regrade's changes read "40 → 29.1667", "-10.8333" and "4 (passed) →
    2.66667": people read two decimals, as everywhere else; changes.csv keeps the exact value."""
    from harness.batch.regrade import write_changes_csv
    old, new = tmp_path / "old", tmp_path / "new"
    third = BEST_MOVE[0].points / 3  # a third of a case's points: 0.333333...
    save(old, graded("ann", {}))
    record = graded("ann", {BEST_MOVE[0].id: (Verdict.WRONG_ANSWER, "x")})
    document = dict(record.document)
    document["tests"] = [dict(t, score=third) if t["number"] == BEST_MOVE[0].number else t
                         for t in document["tests"]]
    document["score"] = float(record.document["score"]) + third
    save(new, store.Record(record.submission, document, 1.0, ""))
    changes = compare_batches(old, new)
    total, drop = f"{float(document['score']):.2f}", f"{BEST_MOVE[0].points - third:.2f}"
    shown = render_changes(changes) + changes_section(changes, "before")
    assert f"-> {total.rstrip('0').rstrip('.')} (-{drop.rstrip('0').rstrip('.')})" in shown
    assert f"{third:.2f}".rstrip("0") + " (wrong answer)" in shown
    assert f"{third:g}" not in shown and f"{float(document['score']):g}" not in shown
    write_changes_csv(tmp_path / "changes.csv", changes)
    assert f"{third:g} (wrong answer)" in (tmp_path / "changes.csv").read_text()
