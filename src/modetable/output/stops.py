"""A stop that a signal asked for, kept until the command line has said why it
stopped.

SIGINT (Ctrl-C), SIGTERM and SIGHUP unwind a command where it stands: the
handler raises. When the program stands in a finalizer at that moment (an
object's `__del__`, a `weakref.finalize` callback, an unfinished generator
being freed), Python prints "Exception ignored" and carries on as though no
signal had come. So the handler also keeps the stop here, and what must not
carry on past a stop (a file staged, before it waits for the disk; the
renames; the end of a command) asks again with `honour`, which raises it anew.
A handler runs in the main thread only, so the stop is the main thread's: a
command run in another thread (the API's callers may) neither raises nor
forgets it.
"""

from __future__ import annotations

import signal
import threading
from typing import Any, NoReturn

__all__ = ["Terminated", "ask", "forget", "honour"]


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised where the program stands so that cleanups run
    as for Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# The signal of a stop asked for and not yet reported by the command line.
_asked: int | None = None


def ask(signum: int, frame: Any = None) -> NoReturn:
    """The signal handler: keep the stop, then raise it where the program stands."""
    global _asked
    _asked = signum
    raise _stop(signum)


def honour() -> None:
    """Raise again a stop that a signal asked for and the command line has not
    yet reported: its first raise may have been swallowed by a finalizer."""
    if _asked is not None and threading.current_thread() is threading.main_thread():
        raise _stop(_asked)


def forget() -> None:
    """No stop is pending: a command begins, or has ended and said why."""
    global _asked
    if threading.current_thread() is threading.main_thread():
        _asked = None


def _stop(signum: int) -> BaseException:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)
