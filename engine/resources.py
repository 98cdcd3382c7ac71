"""Memory and disk a table build would need, checked before it starts.

A build that runs out of memory takes the process down, one that fills the disk fails at the
end after minutes of work: a solver (or ``prepare``) asks :func:`build_room` first and, given a
reason, answers without the table and says why.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .i18n import _, format_number
from .paths import cache_dir

#: Memory left free beside a build (the rest of the process, other processes).
MEMORY_SPARE = 256 << 20
#: Disk left free beside a table file.
DISK_SPARE = 64 << 20


def available_memory() -> int | None:
    """``MemAvailable`` from /proc/meminfo in bytes (None where unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def process_memory() -> int:
    """The memory this process holds now (resident set size) in bytes; 0 where unknown. What a
    build needs comes on top of it."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024   # the peak so far
    except (ImportError, OSError):
        return 0


def free_disk(folder: Path | None = None) -> int | None:
    """Free bytes on the disk of ``folder`` (default: the cache folder, or its nearest existing
    parent before it is made); None where unknown."""
    d = cache_dir() if folder is None else folder
    try:
        probe = d if d.exists() else next((a for a in d.parents if a.exists()), Path("/"))
        return shutil.disk_usage(probe).free
    except OSError:
        return None


def build_room(memory: int, disk: int) -> str | None:
    """Why a build needing ``memory`` bytes at its peak and ``disk`` bytes of files cannot run
    here now (one plain phrase), or None when both fit, with some to spare."""
    mem = available_memory()
    if mem is not None and mem < memory + MEMORY_SPARE:
        return _("building needs about {needed} GiB of memory and {available} GiB is available").format(
            needed=format_number(memory / 2**30, 1), available=format_number(mem / 2**30, 1))
    free = free_disk()
    if free is not None and free < disk + DISK_SPARE:
        return _("the tables need {needed} MiB of disk in {folder} and {free} MiB is free").format(
            needed=format_number(disk / 2**20, 0), folder=cache_dir(), free=format_number(free / 2**20, 0))
    return None
