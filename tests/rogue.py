"""A deliberately misbehaving plugin, to test how the engine guards against plugin code.

Puzzle "rogue" is the toy counter with a parse that can be told to raise plain exceptions
("valueerror", "runtime"). Its solvers misbehave on purpose: one ignores the deadline, one ends
its process, one raises, one returns stats JSON cannot encode, one hits an unwritable directory,
one always gives up. Its renderer draws hostile SVG.
"""

from __future__ import annotations

import os
import time

from toy import CounterPuzzle, GreedySolver

from engine import GaveUp, Renderer, Solved, Solver, hookimpl

# Tests of Ctrl+C need moments they can hit on a busy machine: a slow plugin import that says
# when it has begun, and a file that says the solver has started.
if os.environ.get("ROGUE_IMPORT_STARTED_FILE"):
    with open(os.environ["ROGUE_IMPORT_STARTED_FILE"], "w") as started:
        started.write("importing")
time.sleep(float(os.environ.get("ROGUE_IMPORT_SECONDS") or 0))


class RoguePuzzle(CounterPuzzle):
    id = "rogue"
    title = "Rogue"

    def parse(self, text):
        if text.strip() == "valueerror":
            raise ValueError("invalid literal for int() with base 10: 'valueerror'")
        if text.strip() == "runtime":
            raise RuntimeError("the parser's state is corrupt")
        return super().parse(text)

    def presets(self):
        if os.environ.get("ROGUE_BROKEN_PRESETS"):
            raise AttributeError("'NoneType' object has no attribute 'items'")
        return super().presets()


class Honest(GreedySolver):
    puzzle_id = "rogue"
    name = "honest"


class Sleeper(Solver):
    """Ignores the deadline: never looks at the context."""
    puzzle_id, name = "rogue", "sleeper"

    def solve(self, instance, ctx):
        started = os.environ.get("ROGUE_STARTED_FILE")
        if started:
            with open(started, "w") as f:
                f.write("solving")
        time.sleep(600)


class Exiter(Solver):
    puzzle_id, name = "rogue", "exiter"

    def solve(self, instance, ctx):
        os._exit(7)


class Crasher(Solver):
    puzzle_id, name = "rogue", "crasher"

    def solve(self, instance, ctx):
        raise RuntimeError("index out of range in the search")


class OddStats(Solver):
    """Solves correctly, but with a stat that JSON cannot encode."""
    puzzle_id, name = "rogue", "oddstats"

    def solve(self, instance, ctx):
        moves = ["+1"] * (instance.target - instance.value)
        return Solved(moves, stats={"nodes": 3, "visited": object()})


class NoDir(Solver):
    puzzle_id, name = "rogue", "nodir"

    def solve(self, instance, ctx):
        raise NotADirectoryError(20, "Not a directory", "/dev/null/.cache/rogue")


class Quitter(Solver):
    puzzle_id, name = "rogue", "quitter"

    def solve(self, instance, ctx):
        return GaveUp("deadline", stats={"nodes": 1})


class HostileRenderer(Renderer):
    puzzle_id = "rogue"
    name = "hostile"

    def render(self, state, *, last_move=None, next_move=None, selection=None):
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 20" onload="alert(1)">'
                '<script>alert(2)</script>'
                f'<text class="value" x="5" y="15" onclick="alert(3)">{state.value}</text>'
                '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml">x</body></foreignObject>'
                '<image href="https://example.com/x.png"/></svg>')


class RoguePlugin:
    @hookimpl
    def register_puzzles(self, register):
        register(RoguePuzzle())

    @hookimpl
    def register_solvers(self, register):
        for solver in (Honest(), Sleeper(), Exiter(), Crasher(), OddStats(), NoDir(), Quitter()):
            register(solver)

    @hookimpl
    def register_renderers(self, register):
        register(HostileRenderer())


plugin = RoguePlugin()
register_puzzles = plugin.register_puzzles
register_solvers = plugin.register_solvers
register_renderers = plugin.register_renderers
