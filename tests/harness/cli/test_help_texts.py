"""Help texts say the unit and the default of every option that takes a number or has a
default (``gamegrader COMMAND --help`` is the first documentation an instructor reads)."""
from __future__ import annotations

import argparse

from harness.cli.main import build_parser


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser("tournament")  # the tournament's options too
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_numeric_or_defaulted_option_says_its_default():
    missing = []
    for name, command in _commands().items():
        for action in command._actions:
            if not action.option_strings or action.required or isinstance(
                    action, (argparse._HelpAction, argparse._StoreTrueAction)):
                continue
            numeric = action.type in (int, float)
            defaulted = action.default not in (None, False, [])
            if (numeric or defaulted) and "default" not in (action.help or ""):
                missing.append(f"{name} {action.option_strings[0]}")
    assert not missing, f"options whose help gives no default: {missing}"


def test_time_options_say_their_unit():
    for name, command in _commands().items():
        for action in command._actions:
            if set(action.option_strings) & {"--budget", "--timeout-cap", "--clock"}:
                assert "second" in (action.help or ""), (name, action.option_strings)
