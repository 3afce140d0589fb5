"""Schema checks that load in a millisecond, for the valid documents every grading reads and writes.

jsonschema takes about 45 ms to import, a third of a grading command's start. The modules beside
this one are generated ahead of time by fastjsonschema from the same schemas (``python -m
harness.release.write_schema_checks``; a test fails when one is out of date) and decide the common
case, a valid document. When a check refuses a document, or cannot judge it, the caller asks
jsonschema, which decides and words the message: every verdict and message stays jsonschema's.
"""
from __future__ import annotations

import importlib
from typing import Any

CHECKS = ("assignment", "case_file", "generated_file", "precomputed_file", "reference_times",
          "results")


def passes(check: str, data: Any) -> bool:
    """Whether the generated check ``check`` (one of ``CHECKS``) accepts ``data``. False means
    "ask jsonschema": the data may still be valid (say, under a check older than its schema)."""
    validate = importlib.import_module(f"{__name__}.{check}").validate
    try:
        validate(data)
    except Exception:  # any doubt (a refusal, an odd type) goes to jsonschema
        return False
    return True
