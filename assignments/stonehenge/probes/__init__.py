"""Probe files: copied into the student's sandbox folder (``probe_files`` in assignment.yaml) and
imported there by file name. Standard library only; no expected values. The trusted side may
import them too (``game_tree`` reuses the tree parser), which is why this is a package.
"""
from __future__ import annotations
