"""The plug-in contracts: every kind of an assignment's own code the harness calls, in one place.

A spec names its plug-ins as ``package.module:function`` (``compare:``, ``runner:``,
``generator:``, ``precompute:``, ``diagnose:``, and ``kit:`` in assignment.yaml), and
``harness.spec.registry`` (``harness.dotted``) finds them, typed as the Protocols here. As with
pytest's hook specifications, each Protocol's docstring says what the plug-in gets and what it
must return; the harness calls nothing else of an assignment's code.

A runner also declares the options it reads (``declare_options``), so a spec that gives one it
does not know, leaves out one it needs, or gives one of the wrong type is refused when it loads
(``check_runner_options``), before any student code runs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol, Sequence, TypeVar

from harness.spec.errors import SpecError

if TYPE_CHECKING:
    from harness.records.games import Arena
    from harness.records.observations import Observation
    from harness.records.spec import Case
    from harness.records.verdicts import Judgement, Variant
    from harness.sandbox.session import Sandbox


class Comparator(Protocol):
    """Judges a transcript case (``compare:``; the built-ins are ``doctest``, ``components``
    and ``unordered``).

    Gets the case (its examples and ``options``), the observations of the examples that ran
    (one each, in order; fewer when one raised), and whether the feedback may reveal expected
    values (visible cases only). Returns the case's ``Judgement``: a fraction of its points and
    the message the student reads. Must not raise for anything the student's code returned.
    """

    def __call__(self, case: Case, observations: Sequence[Observation], reveal: bool
                 ) -> Judgement: ...


class Runner(Protocol):
    """Grades a case itself, typically by playing whole games (``runner:``).

    Gets the case (its ``timeout`` already scaled to this host, its ``options`` checked against
    ``options``) and the submission's ``Sandbox``, through which it starts the student's code
    (``start_server``, ``start_program``). Returns the case's ``Judgement``. ``options`` is what
    ``declare_options`` attached: the options the runner reads.
    """

    options: Mapping[str, Option]

    def __call__(self, case: Case, sandbox: Sandbox) -> Judgement: ...


class Generator(Protocol):
    """Writes hidden cases (a case file's ``generate:`` block, run by ``gamegrader generate``).

    Gets a ``random.Random`` seeded with the block's ``seed``, the block's ``count``, and its
    ``params`` as keywords. Returns (or yields) ``count`` cases, each a mapping with ``name`` and
    ``doctest`` (the transcript, its expected output from the reference) and optionally
    ``options``, ``stdin``, ``tags`` and ``mirror_of`` (the name of the visible case, same group,
    whose position a case asks mirrored or rotated: ``harness.compare.mirror_images``).
    """

    def __call__(self, rng: random.Random, count: int, **params: Any
                 ) -> Iterable[Mapping[str, Any]]: ...


class Precompute(Protocol):
    """Computes a case's answers ahead with the reference (a case's ``precompute:``), so that its
    comparator needs no reference code at grading time.

    Gets the case's ``options``. Returns a mapping of plain data, written next to the case file
    by ``gamegrader generate`` and read back by the comparator.
    """

    def __call__(self, options: Mapping[str, Any]) -> Mapping[str, Any]: ...


class Variants(Protocol):
    """Names the likely mistakes a failed case is compared with (a case's ``diagnose:``).

    Gets nothing. Returns the ``Variant`` searches (each a description and a namespace of
    functions); a failed case whose answers are exactly one variant's says so in its feedback.
    """

    def __call__(self) -> Sequence[Variant]: ...


class ArenaFactory(Protocol):
    """Makes a game's tournament arena (assignment.yaml's ``kit:`` may name one instead of a
    kit factory; the ladder and house-game cases need a kit).

    Gets ``clock`` (seconds per player per game, None for the game's default) and the arena's
    further settings as keywords; raises ``TypeError`` for one it does not know. Returns an
    ``Arena`` (``harness.records.games``): small, picklable, plays one game per task.
    """

    def __call__(self, *, clock: float | None = None, **options: Any) -> Arena: ...


@dataclass(frozen=True)
class Option:
    """One option a runner reads from ``case.options``: its types, whether a case must give it
    (``unless`` another option has the value named), and (if only some values are allowed)
    which."""

    kinds: tuple[type, ...]
    required: bool = False
    choices: tuple[Any, ...] = ()
    unless: tuple[str, Any] | None = None

    def needed(self, options: Mapping[str, Any]) -> bool:
        """Whether a case with ``options`` must give this option."""
        if not self.required:
            return False
        return self.unless is None or options.get(self.unless[0]) != self.unless[1]

    def problem(self, value: Any) -> str:
        """Why ``value`` is not a value of this option ("" if it is one)."""
        # YAML's true is no number: bool passes only where it is named.
        fits = isinstance(value, self.kinds) and (bool in self.kinds or type(value) is not bool)
        if not fits:
            names = " or ".join(_KIND_NAMES.get(kind, kind.__name__) for kind in self.kinds)
            return f"must be {names}, not {value!r}"
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(map(repr, self.choices))}, not {value!r}"
        return ""


_KIND_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a mapping"}
INTEGER = (int,)
NUMBER = (int, float)
TEXT = (str,)
FLAG = (bool,)

RunnerFunction = TypeVar("RunnerFunction", bound=Callable[..., Any])


def declare_options(**options: Option) -> Callable[[RunnerFunction], RunnerFunction]:
    """Decorate a runner with the options it reads (see ``Runner``)::

        @declare_options(games=Option(INTEGER, required=True), seed=Option(INTEGER))
        def versus_house(case, sandbox): ...
    """
    def declare(runner: RunnerFunction) -> RunnerFunction:
        runner.options = dict(options)  # type: ignore[attr-defined]  # what Runner declares
        return runner
    return declare


def check_runner_options(case: Case, runner: Callable[..., Any]) -> None:
    """Refuse a case whose options do not fit what its runner declares: an option the runner
    does not read (a misspelling, or one meant for another runner), one it needs and the case
    leaves out, or a value of the wrong type.

    Raises:
        SpecError: naming the case file, the case and the option (``options.NAME``).
    """
    declared: Mapping[str, Option] | None = getattr(runner, "options", None)
    if not isinstance(declared, Mapping):
        raise SpecError(case.file, f"runner {case.runner} declares no options (decorate it "
                        "with harness.spec.contracts.declare_options)", case=case.name,
                        field="runner")
    for name in case.options:
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise SpecError(case.file, f"runner {case.runner} has no option {name!r} (its "
                            f"options: {known})", case=case.name, field=f"options.{name}")
        problem = declared[name].problem(case.options[name])
        if problem:
            raise SpecError(case.file, f"option {name!r} {problem}", case=case.name,
                            field=f"options.{name}")
    for name, option in declared.items():
        if name not in case.options and option.needed(case.options):
            raise SpecError(case.file, f"runner {case.runner} needs option {name!r}",
                            case=case.name, field=f"options.{name}")
