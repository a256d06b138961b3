"""Sleeps far past the time limit on every decision."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import time

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    fb.say(f"sleeping on seq {request.seq}")
    time.sleep(request.time_limit_s + 30.0)
    return fb.first_legal(request.seq, request)


fb.run(decide)
