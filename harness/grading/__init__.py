"""Grading one submission: the grading API, the grader, verdicts, results.json."""
