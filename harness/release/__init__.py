"""Releasing an assignment: packages for Gradescope and students, and their checks."""
