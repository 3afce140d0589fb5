"""Batch grading: many submissions, each in its own ``gamegrader grade`` process, in parallel on
this machine or on a dask.distributed cluster, into one output folder with per-submission
results, a CSV gradebook and a self-contained HTML report. Knows no assignment.
"""
from __future__ import annotations

from harness.batch.discover import Student, Submission, discover, read_metadata
from harness.batch.jobs import Job, JobResult, grade_job, read_files
from harness.batch.run import BatchOptions, BatchSummary, run_batch

__all__ = ["BatchOptions", "BatchSummary", "Job", "JobResult", "Student", "Submission",
           "discover", "grade_job", "read_files", "read_metadata", "run_batch"]
