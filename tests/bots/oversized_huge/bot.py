"""Plays 2 decisions, then sends a reply of SIZE bytes of text (argv[2],
default 8 MiB): over what the referee's gRPC transport accepts at all,
so the transport drops the stream: a disconnect."""

import sys

import faultbot as fb

SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 8 * 1024 * 1024


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 3:
        fb.say(f"sending a {SIZE}-byte reply")
        return fb.reply_text(request.seq, "pass " * (SIZE // 5))
    return fb.first_legal(request.seq, request)


fb.run(decide)
