"""Ctrl+C while the ``puzzle`` command starts: exit 3 quietly instead of a traceback.

Imported first by ``engine/__init__.py`` so the guard is in place before the engine's imports and
the plugins load (about half a second). It acts only in the ``puzzle`` command's own process
(the console script, or ``python -m engine.cli``): a program importing the engine keeps its own
Ctrl+C. ``engine.cli.main`` hands Ctrl+C back to Python (KeyboardInterrupt, handled per command)
once the plugins are loaded.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import NoReturn

EXIT_GAVE_UP = 3


def _cancelled_while_starting(signum: int, frame: FrameType | None) -> NoReturn:
    os.write(2, b"error: cancelled\n")
    os._exit(EXIT_GAVE_UP)


def is_cli_process() -> bool:
    """True in the process the ``puzzle`` command started."""
    argv = getattr(sys, "orig_argv", [])
    return (os.path.basename(sys.argv[0] if sys.argv else "") == "puzzle"
            or argv[1:3] == ["-m", "engine.cli"])


def guard_startup() -> None:
    """Install the quiet Ctrl+C handler, in the CLI's process only (and only once)."""
    if is_cli_process() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _cancelled_while_starting)
