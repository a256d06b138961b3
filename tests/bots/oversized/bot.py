"""Plays 2 decisions, then sends a reply of 8 MiB of text, beyond the
referee's maximum receive size."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 3:
        fb.say("sending an 8 MiB reply")
        return fb.reply_text(request.seq, "pass " * (8 * 1024 * 1024 // 5))
    return fb.first_legal(request.seq, request)


fb.run(decide)
