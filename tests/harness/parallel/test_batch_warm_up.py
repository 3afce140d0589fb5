"""The batch's warm-up (``harness.batch.jobs.warm_up_grading``): what every grading forked from a
warm process would otherwise pay again (the grader's imports, the isolation probe, the sandbox
interpreter's ABI probe, the system-call filter, the digests of the grader's own modules,
vermin's import) is done once, in the warm process."""
from __future__ import annotations

import subprocess
import sys

import pytest
from gg_testing import ROOT

pytestmark = pytest.mark.slow

CHECK = """
import sys
from harness.batch.jobs import warm_up_grading
from harness.intake import shipped
from harness.sandbox import levels, packages, syscall_filter
assert "harness.grading.grader" not in sys.modules and "vermin" not in sys.modules
warm_up_grading("adversarial_search")
print("harness.grading.api" in sys.modules, "harness.grading.grader" in sys.modules,
      levels.detect.cache_info().currsize, packages.abi_tag.cache_info().currsize,
      syscall_filter.status.cache_info().currsize, shipped.reference_digests.cache_info().currsize,
      "vermin" in sys.modules)
"""


def test_the_warm_up_leaves_the_grader_imported_and_the_probes_answered():
    # each answer is one a forked grading would otherwise find again (about 30 ms of its CPU)
    done = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "1", "1", "1", "1", "True"]
