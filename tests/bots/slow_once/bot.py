"""Answers decision 2 only after its whole time limit has passed, then plays
legally: one timeout, and its late reply (an old seq) must be dropped."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import time

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 2:
        fb.say(f"sleeping past the limit on seq {request.seq}")
        time.sleep(request.time_limit_s + 1.5)
    return fb.first_legal(request.seq, request)


fb.run(decide)
