"""Plays 2 decisions, then sends a reply of SIZE bytes of text (argv[2],
default 200 kB): over the referee's per-message limit but under what the
transport accepts, so the stream stays up. Then it plays legally."""

import sys

import faultbot as fb

SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 3:
        fb.say(f"sending a {SIZE}-byte reply")
        return fb.reply_text(request.seq, "pass " * (SIZE // 5))
    return fb.first_legal(request.seq, request)


fb.run(decide)
