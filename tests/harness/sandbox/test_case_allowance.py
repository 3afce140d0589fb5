"""One computation of a case's wall-clock and CPU allowance, for both ways a case starts."""
from __future__ import annotations

import pytest

from harness.sandbox.limits import FORK_ALLOWANCE, STARTUP_ALLOWANCE, case_allowance


@pytest.mark.parametrize("timeout", [0.1, 0.75, 1.0, 2.5, 9.99, 10.0, 180.0])
@pytest.mark.parametrize("forked", [False, True])
def test_the_wall_clock_ends_a_case_before_its_cpu_limit(timeout, forked):
    allowance = case_allowance(timeout, forked=forked)
    assert allowance.wall_seconds == timeout + (FORK_ALLOWANCE if forked else STARTUP_ALLOWANCE)
    assert isinstance(allowance.cpu_seconds, int)
    assert allowance.wall_seconds < allowance.cpu_seconds <= allowance.wall_seconds + 1


def test_a_fork_is_given_less_start_up_time_than_a_fresh_interpreter():
    assert case_allowance(5, forked=True).wall_seconds < case_allowance(5, forked=False
                                                                          ).wall_seconds
