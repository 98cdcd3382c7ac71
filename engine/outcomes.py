"""What a solver answers: solved, unsolvable or gave up.

Outcomes are small frozen values so they can cross process boundaries (the web app's worker
pool) and be stored as JSON. ``stats`` holds counters such as ``nodes`` or ``bound``; values are
numbers or short strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Union


def _frozen(stats: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(stats or {}))


@dataclass(frozen=True)
class Solved:
    """A solution: the moves, in the puzzle's notation, from the instance to a solved state.

    ``optimal=True`` claims this answer is proved shortest (for a solver whose class says
    ``optimal = True``, every answer is reported optimal anyway).

    ``stats["lower_bound"]`` (optional, an int): a proven lower bound on the length of the
    shortest solution. The engine then tells users how far from shortest the answer can be
    (``details``: ``shortest_at_least``, ``longer_than_shortest_at_most``) and counts an answer
    as long as its bound as optimal.
    """

    moves: tuple[str, ...]
    optimal: bool = False
    stats: Mapping[str, Any] = field(default_factory=dict)

    status = "solved"

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(str(m) for m in self.moves))
        object.__setattr__(self, "stats", _frozen(self.stats))


@dataclass(frozen=True)
class Unsolvable:
    """A proof that no solution exists.

    ``reason`` is one plain sentence a person can read ("No: from this start, no single peg can
    end on d4."); ``detail`` is the proof behind it (which invariant, say), shown on request.
    """

    reason: str
    stats: Mapping[str, Any] = field(default_factory=dict)

    detail: str = ""

    status = "unsolvable"

    def __post_init__(self) -> None:
        object.__setattr__(self, "stats", _frozen(self.stats))


@dataclass(frozen=True)
class GaveUp:
    """The solver stopped without an answer.

    ``reason`` is ``"deadline"``, ``"cancelled"`` or a short text (e.g. "search space exhausted
    its memory budget"); ``stats`` says how far it got.
    """

    reason: str
    stats: Mapping[str, Any] = field(default_factory=dict)

    status = "gave_up"

    def __post_init__(self) -> None:
        object.__setattr__(self, "stats", _frozen(self.stats))


Outcome = Union[Solved, Unsolvable, GaveUp]
