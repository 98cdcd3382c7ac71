"""Hand-made outlines the noisy reader was not tuned on: simple shapes written by hand, turned,
scaled and shaken, solved through the real command line. Prints one line per case.

    .venv/bin/python bench/tangram_handmade.py
"""
import math
import random
import subprocess
import sys
import time

r2 = math.sqrt(2)
shapes = {
    "square": [(0,0),(4,0),(4,4),(0,4)],
    "rectangle 2r2 x 4r2": [(0,0),(4*r2,0),(4*r2,2*r2),(0,2*r2)],
    "big triangle": [(0,0),(8,0),(4,4)],
    "parallelogram (area 12)": [(0,0),(6,0),(8,2),(2,2)],  # must be refused
    "house": [(0,0),(4,0),(4,3),(2,5),(0,3)],  # 12+4 = 16
    "arrow (area 12)": [(0,0),(2,0),(2,2),(4,2),(2,4),(0,4),(-2,2),(0,2)],  # must be refused
}
def area(p): return abs(sum(p[i][0]*p[(i+1)%len(p)][1]-p[(i+1)%len(p)][0]*p[i][1] for i in range(len(p))))/2
rng = random.Random(7)
for name, pts in shapes.items():
    for noise in (0.05, 0.15):
        a = math.radians(rng.uniform(0, 360))
        s = rng.uniform(10, 80)
        q = [((x*math.cos(a)-y*math.sin(a))*s + rng.uniform(-noise, noise)*s + 300,
              (x*math.sin(a)+y*math.cos(a))*s + rng.uniform(-noise, noise)*s + 200) for x, y in pts]
        text = "outer " + " ".join(f"{x:.3f},{y:.3f}" for x, y in q)
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "engine.cli", "solve", "tangram", text, "--timeout", "5"],
                             capture_output=True, text=True)
        out = (run.stdout + run.stderr).strip().splitlines()
        first = out[0][:110] if out else ""
        print(f"{name:24} area {area(pts):5.1f} noise {noise}: exit {run.returncode} "
              f"{time.perf_counter() - t:4.1f}s  {first}")
