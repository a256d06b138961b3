"""Answers every decision with a well-formed action that is never legal
(a bid of 7: bids are multiples of 5 from 100 on)."""


import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    return fb.reply_action(request.seq, fb.pb.Action(kind="bid", amount=7))


fb.run(decide)
