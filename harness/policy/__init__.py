"""Course policies decided from Gradescope's submission metadata, after grading.

``assignment.yaml``'s optional ``policy:`` section (``rules``) names them: a rate limit, which
score is kept across submissions, a late penalty, and when hidden cases' feedback is released.
``metadata`` reads the facts they need (``submission_metadata.json``, or an export's entry)
defensively; ``apply`` is the one place the policy changes a results document, used by the
Gradescope entry and by ``gamegrader batch`` alike. Every decision is written into the document
(score, top-level output, ``extra_data``), so a regrade from the same metadata repeats it, and
metadata that cannot be read never costs a student anything: that policy is skipped, with a note.
"""
