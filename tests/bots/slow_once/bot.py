"""Does not answer decision 2 in time: its answer goes out from a timer
thread half a second after the whole time limit, while the bot keeps
answering later decisions at once. One timeout; the late reply names an old
seq and must be dropped, not taken as the answer to a later decision."""

import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultbot as fb

conn = fb.Connection(fb.token())


def send_late(data: bytes, seq: int) -> None:
    fb.say(f"sending the late reply for seq {seq}")
    conn.send(data)


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes | None:
    if n == 2:
        fb.say(f"holding back the reply to seq {request.seq}")
        late = fb.first_legal(request.seq, request)
        timer = threading.Timer(request.time_limit_s + 0.5, send_late, args=(late, request.seq))
        timer.daemon = True
        timer.start()
        return None
    return fb.first_legal(request.seq, request)


fb.play(conn, decide)
