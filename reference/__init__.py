"""Trusted reference solutions: rules, generic search, and per-assignment grading knowledge.

Never importable from a student process: the sandbox keeps this package off the worker's path
(and, when running as root, unreadable to the student user).
"""
