"""Concurrent gradings borrow distinct sandbox users from the pool."""
from __future__ import annotations

from harness.sandbox import users


def test_borrowed_users_are_distinct_and_returned(monkeypatch):
    monkeypatch.setattr(users, "_pool", lambda: ["gg-a", "gg-b"])
    with users.borrowed_sandbox_user() as first:
        with users.borrowed_sandbox_user() as second:
            with users.borrowed_sandbox_user() as third:
                assert (first, second, third) == ("gg-a", "gg-b", None)
    with users.borrowed_sandbox_user() as again:
        assert again == "gg-a"


def test_without_pool_users_the_default_user_is_kept(monkeypatch):
    monkeypatch.setattr(users, "_pool", lambda: [])
    with users.borrowed_sandbox_user() as name:
        assert name is None
