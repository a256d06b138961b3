"""Plays legally on its own stream; after its first decision it opens a
second stream with its own token (reuse) and a third with a guessed token.
Both must be refused, and its own game must go on untouched."""


import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 1:
        reuse = fb.play(fb.Connection(fb.token()))
        fb.say(f"second connection with own token ended: {reuse}")
        guessed = fb.play(fb.Connection("0" * len(fb.token())))
        fb.say(f"connection with guessed token ended: {guessed}")
    return fb.first_legal(request.seq, request)


fb.run(decide)
