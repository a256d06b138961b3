"""Tries a TCP connection to the test's listener on 127.0.0.1 (never elsewhere)."""

import socket

from adversary import Adversary, failure, main, report


class NetworkProbe(Adversary):
    def attack(self) -> None:
        port = int(self.config.get("tcp_port", 0))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
                s.sendall(b"hello from a bot\n")
            report("tcp", "connected")
        except OSError as exc:
            report("tcp", failure(exc))


main(NetworkProbe())
