"""The records every layer passes around, at the bottom of the harness: they import nothing of
the project, so any package may use them and none reaches up or across for them.

``spec`` (an assignment, its cases and examples), ``limits`` (a student process's ceilings),
``verdicts`` (a case's verdict, a comparator's judgement, a graded case), ``games`` (how a game
ends, tournament entrants, tasks and results, the house-bot prefix), ``policy`` and ``times``
(a course's policy and the times it is read from). Each name is imported from its module here,
never through another package.
"""
