"""Sleeps far past the time limit on every decision."""


import time

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    fb.say(f"sleeping on seq {request.seq}")
    time.sleep(request.time_limit_s + 30.0)
    return fb.first_legal(request.seq, request)


fb.run(decide)
