"""``gamegrader batch --scheduler``: the same batch on a dask.distributed LocalCluster gives the
same results as local worker processes."""
from __future__ import annotations

import importlib.util

import pytest
from workflow_support import (
    ASSIGNMENT,
    LEAVES_TWICE,
    SOLUTION,
    comparable,
    mutant_text,
    read_json,
    small_root,
)

from harness.batch import BatchOptions, run_batch

# Imported by the test itself: dask.distributed takes about half a second to import, which
# every pytest worker would pay while collecting.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="dask.distributed is not installed (pip install -e '.[batch]')")]


def test_a_local_cluster_gives_the_same_results_as_local_processes(tmp_path, monkeypatch):
    import distributed
    for name, value in small_root(tmp_path / "root").items():
        monkeypatch.setenv(name, value)  # before the cluster starts: its workers inherit it
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "ada.py").write_text(SOLUTION.read_text())
    (submissions / "bob").mkdir()
    (submissions / "bob" / "adversarial_search.py").write_text(mutant_text(*LEAVES_TWICE))

    local = run_batch(BatchOptions(ASSIGNMENT, submissions, tmp_path / "local", workers=2,
                                   progress=False))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = run_batch(BatchOptions(ASSIGNMENT, submissions, tmp_path / "dask",
                                        scheduler=cluster.scheduler_address, progress=False))

    assert sorted(remote.graded) == sorted(local.graded) == ["ada", "bob"]
    assert not remote.failed and not local.failed
    for key in ("ada", "bob"):
        ours = read_json(tmp_path / "local" / "submissions" / key / "results.json")
        theirs = read_json(tmp_path / "dask" / "submissions" / key / "results.json")
        assert comparable(theirs) == comparable(ours)
    assert [r.score for r in remote.records] == [8.0, 5.3333]
    assert (tmp_path / "dask" / "gradebook.csv").read_text() == \
        (tmp_path / "local" / "gradebook.csv").read_text()
