"""The files ``puzzle new-plugin`` writes, as ``string.Template`` texts (``$name`` placeholders).

The generated puzzle is deliberately tiny (reach a target number with +1 and x2) but complete:
presets, random instances, notes, moves in words, an optimal solver, an SVG renderer with the
board markup the editor needs, edit actions and tools, and a test that runs the conformance check.
"""

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$dist"
version = "0.1.0"
description = "$title: a puzzle plugin for the puzzle engine"
readme = "README.md"
requires-python = ">=3.11"
# The engine versions this plugin works with (the plugin contract $contract): the host reads this
# range before importing the plugin and leaves the plugin out when it is running outside it.
# Install the host first, then this package with `puzzle install -e .`.
dependencies = ["$host_range", "svgwrite>=1.4"]

[project.optional-dependencies]
test = ["pytest>=8", "hypothesis>=6.100"]

# The engine finds the plugin through this entry point: name = module with the @hookimpl functions.
[project.entry-points.puzzle_engine]
$id = "$pkg.hooks"

[tool.setuptools.packages.find]
include = ["$pkg*"]
'''

README = '''\
# $title

A puzzle plugin for the puzzle engine, made by `puzzle new-plugin $id`.

The rules: start from a number and reach the target by adding 1 or doubling.

## Install and check

Install the engine first (from its repository: `pip install -e .`), then this package into the
same environment (`puzzle install` keeps the engine's version where it is):

```sh
puzzle install -e .
puzzle plugins          # $id is listed, with its hooks
puzzle check $id        # the engine's conformance laws, one line each
puzzle solve $id small
python -m pytest        # tests/, which run the same conformance check
```

## Engine versions

`pyproject.toml` says which engine versions this plugin works with
(`$host_range`, the plugin contract $contract). The engine reads that range before it imports
the plugin: outside it, the plugin is left out and `puzzle plugins` says what it needs. Widen
the range once the plugin is tested against a newer contract.

## Where things are

- `$pkg/puzzle.py`: the rules, text form, presets, random instances and edit actions
- `$pkg/solver.py`: a breadth-first solver (optimal)
- `$pkg/renderer.py`: the SVG board
- `$pkg/hooks.py`: registers the three with the engine
- `tests/`: the conformance check and a test of the solver against known answers

Replace the rules with your own, keep `puzzle check $id` passing, and see the engine's
docs/plugins.md for the whole contract.
'''

INIT = '''\
"""$title: a puzzle plugin for the puzzle engine (rules in ``puzzle``, solving in ``solver``,
drawing in ``renderer``, registration in ``hooks``)."""
'''

PUZZLE = '''\
"""The rules of $title: reach the target number from the start by adding 1 or doubling."""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine import EditMode, EditResult, EditTool, InputError, Puzzle

#: The largest number an instance may hold: every instance stays small enough to search.
LIMIT = 500


@dataclass(frozen=True)
class Counter:
    """An instance and a state at once: the current number and the target."""

    value: int
    target: int


def _number(text: str, what: str) -> int:
    text = text.strip()
    # isdigit() alone also passes "²" (which int() refuses) and other scripts' digits such as
    # "١٢" (which int() reads as 12): only ASCII 0-9 are numbers here.
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise InputError(f"the {what} must be a whole number from 0 to {LIMIT}, not {text[:20]!r}")
    number = int(text)
    if number > LIMIT:
        raise InputError(f"the {what} {number} is above the limit of {LIMIT}")
    return number


class $cls(Puzzle):
    id = "$id"
    title = "$title"
    rules = "Reach the target number from the start: each move adds 1 or doubles the number."
    notation = '"+1" (add one) or "x2" (double); instances are written "START -> TARGET", e.g. "3 -> 20"'
    limits = f"numbers from 0 to {LIMIT}"
    random_options = {"target": f"the target number, 1 to {LIMIT} (default: random up to 100)"}

    # -- instances -------------------------------------------------------------------------

    def parse(self, text: str) -> Counter:
        if not isinstance(text, str) or len(text) > 100:
            raise InputError('expected "START -> TARGET", e.g. "3 -> 20"')
        start, arrow, target = text.partition("->")
        if not arrow:
            raise InputError('expected "START -> TARGET" with an arrow "->", e.g. "3 -> 20"')
        return Counter(_number(start, "start"), _number(target, "target"))

    def format(self, instance: Counter) -> str:
        return f"{instance.value} -> {instance.target}"

    def presets(self) -> Mapping[str, str]:
        # The first preset is the gallery's thumbnail.
        return {"small": "3 -> 20", "double": "1 -> 64", "far": "5 -> 301"}

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Counter:
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.random_options))
        if unknown:
            raise InputError(f"unknown option {unknown[0][:30]!r}; options: {', '.join(self.random_options)}")
        rng = _random.Random(seed)  # never the global generator: the same seed, the same instance
        target = _number(options["target"], "target") if "target" in options else rng.randint(10, 100)
        if target < 1:
            raise InputError("the target must be at least 1")
        return Counter(rng.randint(0, target - 1), target)  # start below the target: solvable

    def notes(self, instance: Counter) -> Sequence[str]:
        if instance.value > instance.target:
            return ("This cannot be solved: the number only grows.",)
        return ()

    # -- rules -----------------------------------------------------------------------------

    def legal_moves(self, state: Counter) -> Sequence[str]:
        moves = []
        if state.value + 1 <= LIMIT:
            moves.append("+1")
        if state.value * 2 <= LIMIT:
            moves.append("x2")
        return moves

    def apply_move(self, state: Counter, move: str) -> Counter:
        if move == "+1":
            value = state.value + 1
        elif move == "x2":
            value = state.value * 2
        else:
            raise InputError(f"unknown move {str(move)[:20]!r}; moves are +1 and x2")
        if value > LIMIT:
            raise InputError(f"the number cannot go above {LIMIT}")
        return Counter(value, state.target)

    def is_solved(self, state: Counter) -> bool:
        return state.value == state.target

    def describe_move(self, state: Counter, move: str) -> str:
        after = self.apply_move(state, move).value
        return f"{'add one' if move == '+1' else 'double'}: {state.value} becomes {after}"

    # -- editing ---------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", "Play: a click on the number plays +1"),)

    def edit_tools(self, instance: Counter) -> Sequence[EditTool]:
        return (EditTool("Target +10", "target:+10"), EditTool("Target -10", "target:-10"),
                EditTool("Reset start", "start:0"))

    def edit(self, instance: Counter, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        verb, _, argument = str(action).strip().partition(":")
        if verb == "press":
            return EditResult(self.apply_move(instance, "+1"))
        if verb == "target" and argument in ("+10", "-10"):
            target = instance.target + int(argument)
            if not 0 <= target <= LIMIT:
                raise InputError(f"the target must stay between 0 and {LIMIT}")
            return EditResult(Counter(instance.value, target))
        if verb == "start" and argument == "0":
            return EditResult(Counter(0, instance.target))
        raise InputError(f"unknown edit action {str(action)[:30]!r}")

    def to_json(self, instance: Counter) -> dict[str, Any]:
        return {"start": instance.value, "target": instance.target}

    def from_json(self, data: Any) -> Counter:
        if not isinstance(data, dict) or not all(type(data.get(k)) is int for k in ("start", "target")):
            raise InputError('expected a JSON object like {"start": 3, "target": 20}')
        return self.parse(f"{data['start']} -> {data['target']}")
'''

SOLVER = '''\
"""A breadth-first solver: it tries every number reachable in 1 move, then 2, ..., so the first
solution it finds is a shortest one."""

from __future__ import annotations

from collections import deque

from engine import Solved, SolveContext, Solver, Unsolvable

from .puzzle import Counter


class BreadthFirstSolver(Solver):
    puzzle_id = "$id"
    name = "bfs"
    optimal = True  # every answer is a shortest one (breadth-first order)
    description = "Breadth-first search over the numbers: always the fewest moves."

    def solve(self, instance: Counter, ctx: SolveContext):
        if instance.value > instance.target:
            return Unsolvable("No: the number only grows, and it starts above the target.",
                              detail="Both moves, +1 and x2, make the number larger or keep 0 at 0.")
        parent = {instance.value: None}
        queue = deque([instance.value])
        nodes = 0
        while queue:
            value = queue.popleft()
            nodes += 1
            if nodes % 256 == 0:
                if ctx.should_stop():
                    return ctx.gave_up(nodes=nodes)
                ctx.progress(nodes=nodes)
            if value == instance.target:
                moves = []
                while parent[value] is not None:
                    value, move = parent[value]
                    moves.append(move)
                return Solved(tuple(reversed(moves)), optimal=True, stats={"nodes": nodes})
            for move, nxt in (("+1", value + 1), ("x2", value * 2)):
                if nxt <= instance.target and nxt not in parent:
                    parent[nxt] = (value, move)
                    queue.append(nxt)
        return Unsolvable("No: the target cannot be reached from this start.", stats={"nodes": nodes})
'''

RENDERER = '''\
"""The SVG board: the current number (click it to play +1) and the target."""

from __future__ import annotations

import svgwrite

from engine import Renderer

from .puzzle import Counter

STYLE = """
.box { fill: #ffffff; stroke: #1d2430; stroke-width: 2; }
.value .box { fill: #e8f0ff; }
.label { font: 14px sans-serif; fill: #5b6575; }
.number { font: bold 28px sans-serif; fill: #1d2430; }
.last-move .box { stroke: #2457c5; stroke-width: 4; }
.next-move .box { stroke: #2457c5; stroke-dasharray: 6 4; }
"""


class DefaultRenderer(Renderer):
    puzzle_id = "$id"
    name = "default"

    def render(self, state: Counter, *, last_move=None, next_move=None, selection=None) -> str:
        # svgwrite escapes every text and attribute value; debug=False allows data- attributes.
        drawing = svgwrite.Drawing(size=("100%", "100%"), viewBox="0 0 240 100", debug=False)
        drawing.embed_stylesheet(STYLE)
        classes = ["value"] + (["last-move"] if last_move else []) + (["next-move"] if next_move else [])
        value = drawing.g(class_=" ".join(classes), **{
            "data-key": "value", "data-action": "press",
            "aria-label": f"number, {state.value}: press to add one"})
        value.add(drawing.rect((10, 20), (100, 70), rx=8, class_="box"))
        value.add(drawing.text("now", insert=(20, 40), class_="label"))
        value.add(drawing.text(str(state.value), insert=(20, 78), class_="number"))
        drawing.add(value)
        target = drawing.g(class_="target", **{"data-key": "target"})
        target.add(drawing.rect((130, 20), (100, 70), rx=8, class_="box"))
        target.add(drawing.text("target", insert=(140, 40), class_="label"))
        target.add(drawing.text(str(state.target), insert=(140, 78), class_="number"))
        drawing.add(target)
        return drawing.tostring()
'''

HOOKS = '''\
"""The module the entry point names: registers $title's puzzle, solver and renderer."""

from engine import hookimpl

from .puzzle import $cls
from .renderer import DefaultRenderer
from .solver import BreadthFirstSolver


@hookimpl
def register_puzzles(register):
    register($cls())


@hookimpl
def register_solvers(register):
    register(BreadthFirstSolver())  # the first solver this plugin registers is the default


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())
'''

TEST_CONFORMANCE = '''\
"""The engine's conformance laws, run against this plugin (the same as `puzzle check $id`)."""

from engine.conformance import assert_conforms


def test_${id}_obeys_the_engine_laws():
    assert_conforms("$id")
'''

TEST_SOLVER = '''\
"""The solver against answers worked out by hand, not by the solver."""

from engine import Solved, SolveContext, Unsolvable, replay

from $pkg.puzzle import $cls
from $pkg.solver import BreadthFirstSolver


def test_known_shortest_answers():
    puzzle = $cls()
    # 3 -> 20: 3 +1 4 +1 5 x2 10 x2 20 is 4 moves; 3 moves reach at most 24 but never 20 exactly.
    for text, length in [("3 -> 20", 4), ("1 -> 64", 6), ("7 -> 7", 0)]:
        outcome = BreadthFirstSolver().solve(puzzle.parse(text), SolveContext())
        assert isinstance(outcome, Solved) and len(outcome.moves) == length
        assert puzzle.is_solved(replay(puzzle, puzzle.parse(text), outcome.moves)[-1])


def test_a_start_above_the_target_is_unsolvable():
    puzzle = $cls()
    assert isinstance(BreadthFirstSolver().solve(puzzle.parse("9 -> 4"), SolveContext()), Unsolvable)
'''

FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": README,
    "$pkg/__init__.py": INIT,
    "$pkg/puzzle.py": PUZZLE,
    "$pkg/solver.py": SOLVER,
    "$pkg/renderer.py": RENDERER,
    "$pkg/hooks.py": HOOKS,
    "tests/test_conformance.py": TEST_CONFORMANCE,
    "tests/test_solver.py": TEST_SOLVER,
}
