"""Reports what its image's build found when it tried the network (the RUN
step of its Dockerfile wrote it to /build-net.txt):

    ATTACK build network: failed ECONNREFUSED (...)
"""

from adversary import Adversary, main, report


class BuildProbe(Adversary):
    def attack(self) -> None:
        try:
            with open("/build-net.txt") as f:
                report("build network", f.read().strip())
        except OSError as exc:
            report("build network", f"no result: {exc}")


main(BuildProbe())
