"""A tiny puzzle used to test the engine itself, independent of the real plugins.

Counter: reach ``target`` from ``start`` with the moves "+1" and "*2". Small enough that breadth-
first search gives the true shortest length to check solvers against.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import InputError, Puzzle, Renderer, Solved, Solver, Unsolvable, hookimpl


@dataclass(frozen=True)
class Counter:
    value: int
    target: int


class CounterPuzzle(Puzzle):
    id = "counter"
    title = "Counter"
    rules = "Reach the target number using +1 and *2."
    notation = '"+1" or "*2"'
    limits = "numbers from 0 to 1000"

    def parse(self, text: str) -> Counter:
        parts = text.replace("->", " ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InputError('expected "START -> TARGET", two whole numbers')
        value, target = (int(p) for p in parts)
        if value > 1000 or target > 1000:
            raise InputError("numbers must be at most 1000")
        return Counter(value, target)

    def format(self, instance: Counter) -> str:
        return f"{instance.value} -> {instance.target}"

    def presets(self):
        return {"small": "1 -> 10"}

    def random(self, seed, options=None):
        return Counter(seed % 10, 10 + seed % 7)

    def legal_moves(self, state):
        return ["+1", "*2"]

    def apply_move(self, state, move):
        if move == "+1":
            value = state.value + 1
        elif move == "*2":
            value = state.value * 2
        else:
            raise InputError(f"unknown move {move!r}; moves are +1 and *2")
        if value > 1000:
            raise InputError("the counter cannot go above 1000")
        return Counter(value, state.target)

    def is_solved(self, state):
        return state.value == state.target


class GreedySolver(Solver):
    puzzle_id = "counter"
    name = "greedy"
    optimal = False

    def solve(self, instance, ctx):
        if instance.value > instance.target:
            return Unsolvable("the counter only goes up")
        moves, value = [], instance.value
        while value != instance.target:
            if ctx.should_stop():
                return ctx.gave_up(nodes=len(moves))
            if 0 < value and value * 2 <= instance.target:
                value, move = value * 2, "*2"
            else:
                value, move = value + 1, "+1"
            moves.append(move)
        return Solved(moves, stats={"nodes": len(moves)})


class TextRenderer(Renderer):
    puzzle_id = "counter"

    def render(self, state, *, last_move=None, next_move=None, selection=None):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 20">'
                f'<text class="value" x="5" y="15">{state.value} / {state.target}</text></svg>')


class ToyPlugin:
    """A well-behaved plugin object (pluggy accepts any object with hookimpls)."""

    @hookimpl
    def register_puzzles(self, register):
        register(CounterPuzzle())

    @hookimpl
    def register_solvers(self, register):
        register(GreedySolver())

    @hookimpl
    def register_renderers(self, register):
        register(TextRenderer())
