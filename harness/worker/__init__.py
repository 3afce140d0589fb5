"""Code that runs inside student processes. Standard library only; copied into the sandbox.

Nothing in this package may import the rest of ``harness``: the package is copied on its own
into a folder the student process can read (``harness.sandbox.workspace.copy_worker``), and the
student process can tamper with it freely. Its replies are therefore treated by the trusted side
as untrusted data. The trusted side imports ``bounds`` from here, so both keep the same bounds.
"""
