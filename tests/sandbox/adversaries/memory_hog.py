"""Allocates (and touches) memory until it dies."""

from adversary import MB, Adversary, main, report


class MemoryHog(Adversary):
    def attack(self) -> None:
        blocks = []
        try:
            while True:
                blocks.append(bytearray(b"\x01" * (16 * MB)))
                if len(blocks) % 8 == 0:
                    report("memory", f"holding {16 * len(blocks)} MB")
        except MemoryError:
            report("memory", f"refused after {16 * len(blocks)} MB")
            raise


main(MemoryHog())
