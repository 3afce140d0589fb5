"""One grading, every platform: the platform-neutral outcome of a grading (``outcome``) and one
small writer per platform that turns it into that platform's file (``formats``)."""

FORMAT_NAMES = ("classroom50", "codegrade", "gradescope", "junit", "prairielearn", "tap")
"""The platforms ``--format`` knows (``formats.FORMATS`` has a writer for each); named here so
that the command line is built without importing the writers."""
DEFAULT_FORMAT = "gradescope"
