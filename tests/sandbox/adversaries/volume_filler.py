"""Writes into the folders its image declares as VOLUME (attack.json
"volumes"), up to "limit_mb", to escape the read-only root and leave data
behind; then into /tmp. Reports how far each got:

    ATTACK volume /data: stopped at 16 MB: failed ENOSPC (...)
    ATTACK volume /data: wrote 64 MB (no limit met)
"""

import os

from adversary import MB, Adversary, failure, main, report


def fill(folder: str, limit_mb: int) -> None:
    """4 MB files (under RLIMIT_FSIZE, which bounds one file, not a folder)."""
    written = 0
    chunk = b"v" * MB
    try:
        while written < limit_mb:
            with open(os.path.join(folder, f"fill-{written // 4}.bin"), "ab") as f:
                f.write(chunk)
                f.flush()
                os.fsync(f.fileno())
            written += 1
        report(f"volume {folder}", f"wrote {written} MB (no limit met)")
    except OSError as exc:
        report(f"volume {folder}", f"stopped at {written} MB: {failure(exc)}")


class VolumeFiller(Adversary):
    def attack(self) -> None:
        limit = int(self.config.get("limit_mb", 64))
        for folder in self.config.get("volumes", []):
            fill(folder, limit)
        fill("/tmp", limit)


main(VolumeFiller())
