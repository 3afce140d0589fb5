"""The look every HTML page of gamegrader shares: one stylesheet, one header, one table helper.

The batch report, the feedback and similarity pages, the tournament report and the replay pages
are all built with :func:`harness.pages.layout.page`, so they read as one product and a change
of style is made once. Pages stay self-contained (inline CSS, SVG and script, nothing fetched).
"""
