"""Generated junk, through Hypothesis when it is installed: many inputs, and the smallest failing one.

Hypothesis runs here with no example database (``database=None``), quietly, from a fixed seed,
so a check is reproducible and writes no ``.hypothesis/`` folder of examples. (Hypothesis may
still cache Unicode tables in its storage directory; ``puzzle check`` points that at the user
cache directory, see :func:`engine.conformance.use_cache_dir`.)
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from .results import LawSkipped

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def _hypothesis() -> tuple[ModuleType, ModuleType]:
    try:
        import hypothesis
        from hypothesis import strategies
    except ImportError:  # the engine runs without it; only the junk laws need it
        raise LawSkipped("Hypothesis is not installed (pip install hypothesis)") from None
    return hypothesis, strategies


def junk_text(alphabet: str | None = None, max_size: int = 300) -> SearchStrategy[str]:
    _, st = _hypothesis()
    return st.text(alphabet=alphabet, max_size=max_size) if alphabet else st.text(max_size=max_size)


def junk_json() -> SearchStrategy[Any]:
    _, st = _hypothesis()
    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    return st.recursive(leaves, lambda children: st.lists(children, max_size=5)
                        | st.dictionaries(st.text(max_size=8), children, max_size=5), max_leaves=20)


def find_failure(strategy: SearchStrategy[Any], check: Callable[[Any], None], *, examples: int,
                 seed: int) -> tuple[Any, BaseException] | None:
    """Run ``check`` on up to ``examples`` generated values; the minimal value it fails on and
    the exception, or None if it never fails."""
    hypothesis, _ = _hypothesis()
    failures: list[tuple[Any, BaseException]] = []

    @hypothesis.settings(
        max_examples=examples, database=None, deadline=None, derandomize=False,
        verbosity=hypothesis.Verbosity.quiet, report_multiple_bugs=False,
        # Generation timing is meaningless on a loaded CI machine; every other health check stays.
        suppress_health_check=[hypothesis.HealthCheck.too_slow],
    )
    @hypothesis.seed(seed)
    @hypothesis.given(strategy)
    def run(value: Any) -> None:
        try:
            check(value)
        except Exception as exc:
            failures.append((value, exc))
            raise

    try:
        run()
    except Exception:
        if failures:
            # Hypothesis replays the shrunk example last, so the last failure is the minimal one.
            return failures[-1]
        raise
    return None
