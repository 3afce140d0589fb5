"""Trusted grading knowledge for the Dominoes assignment (case generators)."""
