"""Log lines for the terminal with their control characters escaped.

What `arena serve` logs holds text from anyone who can reach it: the path
of a request, a person's name typed into the lobby. Written raw, an escape
sequence in it (ESC ] 0 ; ... BEL sets the terminal's title, ESC [ 2 J
clears the screen, a CR overwrites the line) would act on the operator's
terminal. Each line is written with those characters as \\xNN instead;
a traceback keeps its line breaks.
"""

from __future__ import annotations

import logging
import re
from types import TracebackType
from typing import TypeAlias

ExcInfo: TypeAlias = (tuple[type[BaseException], BaseException, TracebackType | None]
                      | tuple[None, None, None])

# C0 controls but tab, DEL and the C1 controls (ESC's 8-bit forms).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _hex(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def escape_controls(text: str, keep_newlines: bool = False) -> str:
    return (_CONTROL_BUT_NEWLINE if keep_newlines else _CONTROL).sub(_hex, text)


class SafeFormatter(logging.Formatter):
    """A Formatter whose message is one line of printable text."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape_controls(super().formatMessage(record))

    def formatException(self, ei: ExcInfo) -> str:
        return escape_controls(super().formatException(ei), keep_newlines=True)

    def formatStack(self, stack_info: str) -> str:
        return escape_controls(super().formatStack(stack_info), keep_newlines=True)


def terminal_handler(fmt: str) -> logging.Handler:
    """A stderr handler writing `fmt` lines through SafeFormatter."""
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter(fmt))
    return handler
