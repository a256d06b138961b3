"""Does not answer decision 2 in time: its answer goes out late, just before
its answer to decision 3 (the referee sends decision 3 only after timing
decision 2 out, so the late reply surely arrives while the match runs; a
timer could fire after a short match has ended). One timeout; the late reply
names an old seq and must be dropped, not taken as the answer to decision 3."""


import faultbot as fb

conn = fb.Connection(fb.token())


def send_late(data: bytes, seq: int) -> None:
    fb.say(f"sending the late reply for seq {seq}")
    conn.send(data)


held: list[tuple[bytes, int]] = []


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes | None:
    if n == 2:
        fb.say(f"holding back the reply to seq {request.seq}")
        held.append((fb.first_legal(request.seq, request), request.seq))
        return None
    while held:
        send_late(*held.pop())
    return fb.first_legal(request.seq, request)


fb.play(conn, decide)
