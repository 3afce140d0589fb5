"""One grading, every platform: the platform-neutral outcome of a grading (``outcome``) and one
small writer per platform that turns it into that platform's file (``formats``)."""
