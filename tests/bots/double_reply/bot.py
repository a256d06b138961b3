"""Answers every decision twice with its first legal action: the second copy
answers nothing (a late reply), which is wasteful but no fault, however
many decisions the match has."""


import faultbot as fb

conn: fb.Connection | None = None


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    answer = fb.first_legal(request.seq, request)
    assert conn is not None
    conn.send(answer)  # the copy; `play` sends the returned one
    return answer


conn = fb.Connection(fb.token())
fb.play(conn, decide)
