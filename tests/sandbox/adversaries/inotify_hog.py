"""Takes every inotify instance its user may have (a per-user kernel limit,
fs.inotify.max_user_instances) and holds them to the end of the match: if
bots shared a uid, the other bots would have none left.

    ATTACK inotify: uid 200123 held 128: failed EMFILE (...)
"""

import ctypes
import errno
import os

from adversary import Adversary, main, report

held: list[int] = []  # kept open to the end


class InotifyHog(Adversary):
    def attack(self) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        while len(held) < 4096:
            fd = libc.inotify_init1(0)
            if fd < 0:
                code = ctypes.get_errno()
                why = f"failed {errno.errorcode.get(code, code)} ({os.strerror(code)})"
                break
            held.append(fd)
        else:
            why = "stopped at 4096"
        report("inotify", f"uid {os.getuid()} held {len(held)}: {why}")


main(InotifyHog())
