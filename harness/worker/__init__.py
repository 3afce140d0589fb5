"""Code that runs inside student processes. Standard library only; copied into the sandbox.

Nothing in this package may import the rest of ``harness``: the worker file is copied on its own
into a folder the student process can read, and the student process can tamper with it freely.
Its replies are therefore treated by the trusted side as untrusted data.
"""
