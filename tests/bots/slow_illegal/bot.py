"""Thinks 3 s on its first decision (past the 2 s per-move time, into the
bank) and then answers with an illegal action; logs the bank its next
request shows, and plays its first legal action from then on."""

import time

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 1:
        time.sleep(3.0)
        return fb.reply_action(request.seq, fb.pb.Action(kind="bid", amount=7))
    if n == 2:
        fb.say(f"bank left {request.bank_left_s:.3f}")
    return fb.first_legal(request.seq, request)


fb.run(decide)
