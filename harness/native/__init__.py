"""A course's existing unittest suites (gradescope-utils style) graded as gamegrader cases.

A case file's ``suite:`` names a ``unittest`` module; each test method becomes one case
(``suite``: its decorators read through gradescope-utils, its points, visibility, number and
tags). The method runs in the sandbox like any transcript, but rewritten (``transcript``): each
assertion only *records* the value under test, and the expected values never enter the
student's process; the trusted side evaluates them and runs unittest's own assertion on plain
data (``judge``).
"""
