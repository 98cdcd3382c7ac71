"""A tiny third-party-style puzzle, "pairs", for the web, job and task tests (a library, not a
test module: worker processes import it too).

"Pairs": a row of bits; move ``k`` flips bits k and k+1; solved when every bit is 0. A row with
an odd number of ones can never be solved (every move changes the count by 0 or 2), which gives
an independent check of the "unsolvable" path. The extra solvers misbehave on purpose: one
waits politely until it is told to stop, one ignores every stop request (the runner must kill it).

The worker processes load :func:`toy_registry` by its dotted path, ``pairs_toy:toy_registry``.
"""

from __future__ import annotations

import time

from engine import EditMode, EditResult, EditTool, InputError, Puzzle, Renderer, Solved, Solver, Unsolvable, hookimpl
from engine.plugins import Registry

MAX_BITS = 24


class Pairs(Puzzle):
    id = "pairs"
    title = "Pairs <&> test"  # markup in a title must come out escaped
    rules = "Flip two neighbouring bits at a time until every bit is 0."
    notation = "k flips bits k and k+1 (0-based)"
    limits = f"rows of up to {MAX_BITS} bits"
    random_options = {"bits": "how many bits (2 to 24)"}
    client_script = "window.pairsClientLoaded = true;"

    def parse(self, text):
        if not isinstance(text, str):
            raise InputError("expected text")
        bits = text.strip()
        if not bits:
            raise InputError("the row is empty")
        if len(bits) > MAX_BITS:
            raise InputError(f"the row has {len(bits)} bits; the limit is {MAX_BITS}")
        for i, ch in enumerate(bits, start=1):
            if ch not in "01":
                raise InputError(f"{ch!r} is not a bit (use 0 and 1)", where=f"column {i}")
        return tuple(int(c) for c in bits)

    def format(self, instance):
        return "".join(map(str, instance))

    def presets(self):
        return {"easy": "0110", "wide": "100000000001", "odd": "1000"}

    def random(self, seed, options=None):
        import random
        n = int((options or {}).get("bits", 8))
        rng = random.Random(seed)
        bits = [rng.randint(0, 1) for _ in range(n)]
        if sum(bits) % 2:
            bits[0] ^= 1
        return tuple(bits)

    def notes(self, instance):
        if sum(instance) % 2:
            return ("An odd number of ones: this row cannot be solved.",)
        return ()

    def legal_moves(self, state):
        return [str(k) for k in range(len(state) - 1)]

    def apply_move(self, state, move):
        if not move.isdigit() or int(move) >= len(state) - 1:
            raise InputError(f"no move {move!r}")
        k = int(move)
        bits = list(state)
        bits[k] ^= 1
        bits[k + 1] ^= 1
        return tuple(bits)

    def is_solved(self, state):
        return not any(state)

    def describe_solution(self, instance, moves):
        return {"flips": len(moves)}

    def edit_modes(self):
        return (EditMode("toggle", "Toggle a bit"), EditMode("pick", "Pick two bits"))

    def edit_tools(self, instance):
        return (EditTool("Clear", "clear"),
                EditTool("Length", choices=tuple((str(n), f"length:{n}") for n in (4, 8, 12))))

    def edit(self, instance, action, *, mode=None, selection=None):
        if action == "clear":
            return EditResult(tuple(0 for _ in instance))
        if action.startswith("length:"):
            n = action.split(":", 1)[1]
            if not n.isdigit() or not 2 <= int(n) <= MAX_BITS:
                raise InputError(f"bad length {n!r}")
            return EditResult((tuple(instance) + (0,) * MAX_BITS)[: int(n)])
        if action.startswith("flip:"):
            k = action.split(":", 1)[1]
            if not k.isdigit() or int(k) >= len(instance):
                raise InputError(f"no bit {k!r}")
            k = int(k)
            if mode == "pick":
                if selection is None:
                    return EditResult(instance, selection=str(k), message=f"Bit {k} picked")
                bits = list(instance)
                bits[k] ^= 1
                bits[int(selection)] ^= 1
                return EditResult(tuple(bits))
            bits = list(instance)
            bits[k] ^= 1
            return EditResult(tuple(bits))
        raise InputError(f"unknown edit action {action!r}")


#: Set by Sweep.prepare in the process that ran it: shows whether a worker prepared its solvers.
PREPARED_IN_THIS_PROCESS = False


def flip(bits: str, move: str) -> str:
    """The toy's rule written again, independently of Pairs.apply_move: move k flips bits k, k+1."""
    k = int(move)
    b = list(bits)
    for i in (k, k + 1):
        b[i] = "1" if b[i] == "0" else "0"
    return "".join(b)


class Sweep(Solver):
    puzzle_id = "pairs"
    name = "sweep"
    optimal = False
    description = "Flips left to right."

    def prepare(self, ctx):
        global PREPARED_IN_THIS_PROCESS
        PREPARED_IN_THIS_PROCESS = True
        return True

    def solve(self, instance, ctx):
        if sum(instance) % 2:
            return Unsolvable("an odd number of ones can never become zero ones",
                              stats={"nodes": 0, "prepared": PREPARED_IN_THIS_PROCESS})
        bits, moves = list(instance), []
        for k in range(len(bits) - 1):
            if bits[k]:
                bits[k] ^= 1
                bits[k + 1] ^= 1
                moves.append(str(k))
        return Solved(moves, stats={"nodes": len(moves), "prepared": PREPARED_IN_THIS_PROCESS})


class Patient(Solver):
    """Waits, checking should_stop, until the deadline or a cancel."""

    puzzle_id = "pairs"
    name = "patient"

    def solve(self, instance, ctx):
        nodes = 0
        while not ctx.should_stop():
            nodes += 1
            ctx.progress(nodes=nodes, bound=nodes // 10)
            time.sleep(0.01)
        return ctx.gave_up(nodes=nodes)


class Stubborn(Solver):
    """Never checks should_stop: only killing its process stops it."""

    puzzle_id = "pairs"
    name = "stubborn"

    def solve(self, instance, ctx):
        while True:
            time.sleep(0.05)


class Liar(Solver):
    """Returns a solution that does not reach the goal: the engine must refuse it."""

    puzzle_id = "pairs"
    name = "liar"

    def solve(self, instance, ctx):
        return Solved(["0"])


class Bits(Renderer):
    puzzle_id = "pairs"

    def render(self, state, *, last_move=None, next_move=None, selection=None):
        cells = []
        for k, bit in enumerate(state):
            cls = "bit on" if bit else "bit"
            if selection == str(k):
                cls += " selected"
            cells.append(f'<rect class="{cls}" data-action="flip:{k}" x="{k * 10}" y="0" '
                         f'width="9" height="9" fill="{"#333" if bit else "#eee"}"/>')
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {len(state) * 10} 10" '
                f'data-solved="{str(not any(state)).lower()}">{"".join(cells)}</svg>')


class PairsPlugin:
    """The hooks of the toy plugin: the puzzle, its four solvers and its renderer."""

    @hookimpl
    def register_puzzles(self, register):
        register(Pairs())

    @hookimpl
    def register_solvers(self, register):
        for solver in (Sweep(), Patient(), Stubborn(), Liar()):
            register(solver)

    @hookimpl
    def register_renderers(self, register):
        register(Bits())


def toy_registry() -> Registry:
    """A registry holding only the toy puzzle (loaded by worker processes by dotted path)."""
    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin(), version="9.9")
    registry.collect()
    return registry


TOY_FACTORY = f"{__name__}:toy_registry"

