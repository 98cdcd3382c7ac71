"""Plain words for peg solitaire verdicts: the one sentence a person reads first.

The proof (position classes, pagoda functions, an exhaustive search) goes in the ``detail`` behind
it; the sentence itself only says what cannot happen, in the terms of the goal, so it is true
whichever proof found it.
"""

from __future__ import annotations

from .board import PegInstance


def no_solution_sentence(instance: PegInstance) -> str:
    """"No: from this start, no single peg can end on d4." (or the sentence for the goal kind)."""
    if instance.goal_kind == "hole":
        cell = instance.goal.bit_length() - 1
        name = instance.board.names[instance.board.index[cell]]
        return f"No: from this start, no single peg can end on {name}."
    if instance.goal_kind == "any":
        return "No: from this start, no sequence of jumps leaves a single peg."
    return "No: from this start, no sequence of jumps reaches the goal pattern."
