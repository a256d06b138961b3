"""Reports the limits the sandbox gave it (stderr -> the seat's log), then plays."""

import resource
import sys

from arena.sdk import Bot, run

nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
fsize = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
data = resource.getrlimit(resource.RLIMIT_DATA)[0]
cpu = resource.getrlimit(resource.RLIMIT_CPU)[0]
print(f"LIMITS nofile={nofile} fsize={fsize} data={data} cpu={cpu}", file=sys.stderr, flush=True)


class First(Bot):
    def act(self, observation):  # type: ignore[no-untyped-def]
        return observation.legal_actions[0]


run(First())
