"""The beam of plugins/tangram/closing.py's meet-in-the-middle search as it was first written,
a plain loop over the states with a dict per step, kept to check the numpy beam against: both
must keep the same states, in the same order, with the same costs and paths."""

from __future__ import annotations

from typing import Sequence

from plugins.tangram.closing import MAX_DISP, R2, _moves


def half_beam_loop(rel: Sequence[tuple[float, float]], dirs: Sequence[int], lengths: Sequence[float], steps: int,
               width: int, inv: float, lsig: float, keep_area: bool = True) -> dict[tuple, tuple]:
    """The beam of :func:`closed_walks` over the first ``steps`` edges of a ring given as
    ``rel`` (drawn corners relative to corner 0), without closing it: exact end position and
    (rounded) twice the area -> (cost, path, twice area, prior, residual sums x, y, squared).
    Without ``keep_area`` (no area asked of the ring) states are told apart by position only."""
    beam: dict[tuple, tuple] = {(0, 0, 0, 0, 0.0): (0.0, (), 0.0, 0.0, 0.0, 0.0, 0.0)}
    for step in range(steps):
        tx, ty = rel[step + 1]
        m = step + 2
        nxt: dict[tuple, tuple] = {}
        cache: dict[tuple, list] = {}
        for key, (_cost, path, a2, pri, sx, sy, sq) in beam.items():
            xa, xb, ya, yb = key[:4]
            fx, fy = (xa + xb * R2) / 24, (ya + yb * R2) / 24
            wx, wy = tx + sx / (m - 1) - fx, ty + sy / (m - 1) - fy
            ck = (round(wx * 40), round(wy * 40))
            moves = cache.get(ck)
            if moves is None:
                moves = cache[ck] = [(c, d, ln, (d[0] + d[1] * R2) / 24, (d[2] + d[3] * R2) / 24)
                                     for c, d, ln in _moves(dirs[step], lengths[step], (wx, wy), False, lsig)]
            for c, (dxa, dxb, dya, dyb), ln, dfx, dfy in moves:
                gx, gy = fx + dfx, fy + dfy
                rx, ry = gx - tx, gy - ty
                nsx, nsy, nsq = sx + rx, sy + ry, sq + rx * rx + ry * ry
                disp = nsq - (nsx * nsx + nsy * nsy) / m
                if disp > MAX_DISP * m:
                    continue
                npri = pri + c
                total = npri + inv * disp
                na2 = a2 + fx * gy - gx * fy
                q = (xa + dxa, xb + dxb, ya + dya, yb + dyb, round(na2, 6) if keep_area else 0.0)
                old = nxt.get(q)
                if old is None or total < old[0]:
                    nxt[q] = (total, (path, ln), na2, npri, nsx, nsy, nsq)
        if not nxt:
            return {}
        if len(nxt) > width:
            nxt = dict(sorted(nxt.items(), key=lambda kv: kv[1][0])[:width])
        beam = nxt
    return beam
