"""The conformance check: the laws every puzzle plugin obeys, shipped with the engine.

Run it from the command line::

    puzzle check lights_out --examples 100 --seed 7

or from a plugin's own tests (pytest or anything else)::

    from engine.conformance import assert_conforms

    def test_my_puzzle_conforms():
        assert_conforms("my_puzzle")          # AssertionError with the report if a law fails

:func:`check_puzzle` returns the :class:`CheckReport` instead, for callers that want each
:class:`LawResult`. The laws are listed in :data:`LAWS` (see :mod:`engine.conformance.laws`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from ..paths import cache_dir
from ..plugins import Registry, get_registry
from .laws import LAWS, Law, Subject, crash_text
from .results import CheckReport, LawFailure, LawResult, LawSkipped

__all__ = ["LAWS", "CheckReport", "Law", "LawResult", "assert_conforms", "check_law", "check_puzzle",
           "law_names", "use_cache_dir"]

DEFAULT_EXAMPLES = 50


def law_names() -> list[str]:
    """The names of the laws, in the order they are checked."""
    return [law.name for law in LAWS]


def _run(law: Law, subject: Subject) -> LawResult:
    try:
        message = law.check(subject)
    except LawFailure as exc:
        return LawResult(law.name, law.title, "fail", exc.message, exc.example)
    except LawSkipped as exc:
        return LawResult(law.name, law.title, "skip", str(exc))
    except Exception as exc:  # a crash outside any example is still this law's failure
        return LawResult(law.name, law.title, "fail", f"the check crashed: {crash_text(exc)}")
    return LawResult(law.name, law.title, "pass", message)


def check_puzzle(puzzle_id: str, *, registry: Registry | None = None, examples: int = DEFAULT_EXAMPLES,
                 seed: int = 0, laws: Iterable[str] | None = None,
                 on_result: Callable[[LawResult], None] | None = None) -> CheckReport:
    """Check one installed puzzle against the laws (all of them, or those named).

    ``examples`` is how many generated inputs each junk law tries; ``seed`` picks the random
    instances (``seed``, ``seed + 1``, ...) and the generated inputs, so a run is reproducible.
    ``on_result`` is called with each law's result as soon as it is known (the CLI prints it).
    Unknown puzzle: :class:`engine.InputError`; unknown law name: ValueError.
    """
    use_cache_dir()
    registry = registry or get_registry()
    puzzle = registry.puzzle(puzzle_id)
    wanted = list(laws) if laws is not None else law_names()
    unknown = sorted(set(wanted) - set(law_names()))
    if unknown:
        raise ValueError(f"unknown law(s) {', '.join(unknown)}; laws: {', '.join(law_names())}")
    subject = Subject(registry=registry, puzzle=puzzle, examples=examples, seed=seed)
    results = []
    for law in LAWS:
        if law.name in wanted:
            results.append(_run(law, subject))
            if on_result is not None:
                on_result(results[-1])
    return CheckReport(puzzle.id, registry.owner(puzzle.id), tuple(results))


def check_law(puzzle_id: str, law: str, **kwargs: Any) -> LawResult:
    """One law's result for one puzzle (keyword arguments as for :func:`check_puzzle`)."""
    return check_puzzle(puzzle_id, laws=[law], **kwargs).results[0]


def assert_conforms(puzzle_id: str, **kwargs: Any) -> CheckReport:
    """:func:`check_puzzle`, raising AssertionError with the whole report if any law fails."""
    report = check_puzzle(puzzle_id, **kwargs)
    if not report.ok:
        raise AssertionError(report.text())
    return report


def use_cache_dir() -> Path:
    """Point Hypothesis's storage (its Unicode tables) at the user cache directory, so a check
    writes nothing into the current directory; returns the folder.

    :func:`check_puzzle` calls it. It sets ``HYPOTHESIS_STORAGE_DIRECTORY`` only if unset (or empty), and
    Hypothesis reads that once, so a process that used Hypothesis earlier keeps its own folder.
    """
    folder = cache_dir() / "hypothesis"
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):  # empty counts as unset, as for Hypothesis
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(folder)
    return Path(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])
