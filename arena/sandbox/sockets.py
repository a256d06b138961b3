"""Letting an unprivileged bot reach the referee's unix socket.

At the bwrap and docker levels the bot runs under a uid that is not the
referee's. It needs search permission on the socket folder and write
permission on the socket file; it gets exactly that (0o711 on the folder:
it may open a name it knows but not list the folder; 0o666 on the socket).
The per-seat token, not the file mode, is what identifies a bot.
"""

from __future__ import annotations

import os
import stat


def open_socket_to(socket_dir: str, address: str) -> None:
    """Make `socket_dir` traversable and the socket of `address` ("unix:<path>") connectable."""
    try:
        mode = stat.S_IMODE(os.stat(socket_dir).st_mode)
        if mode & 0o011 != 0o011:
            os.chmod(socket_dir, mode | 0o711)
    except OSError:
        return
    if address.startswith("unix:"):
        path = address[len("unix:"):]
        path = path.removeprefix("//")
        try:
            if stat.S_ISSOCK(os.stat(path).st_mode):
                os.chmod(path, 0o666)
        except OSError:
            pass  # not created yet: the referee must then make it connectable itself
