"""161 varied tangram figures for the reliability bench: every preset, then seeded random
assemblies with holes, point contacts and off-lattice slides (solvable by construction).

    from bench.tangram_figures import figures   # [(name, instance text), ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plugins.tangram.assembly import random_assembly  # noqa: E402
from plugins.tangram.figures import PRESETS  # noqa: E402
from plugins.tangram.silhouette import format_silhouette  # noqa: E402

COUNT = 161
#: (label, random options): each kind gets an equal share of the random figures.
KINDS = (("hole", {"hole": "1"}), ("touch", {"touch": "0.7"}), ("slide", {"slide": "0.9"}),
         ("mixed", {"hole": "0.4", "touch": "0.4", "slide": "0.5"}))


def figures(count: int = COUNT) -> list[tuple[str, str]]:
    out = [(name, text) for name, text in PRESETS.items()][:count]
    seed = 0
    while len(out) < count:
        label, options = KINDS[seed % len(KINDS)]
        silhouette, _ = random_assembly(seed, options)
        out.append((f"random-{label}-{seed}", format_silhouette(silhouette)))
        seed += 1
    return out


if __name__ == "__main__":
    for name, text in figures():
        print(f"# {name}\n{text}\n")
