"""Plays 2 decisions, then sends bytes that are no protobuf message at all
(a length-delimited field claiming far more bytes than follow)."""


import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 3:
        fb.say("sending undecodable bytes")
        return b"\x12\xff\xff\xff\xff\x0f\xde\xad\xbe\xef"
    return fb.first_legal(request.seq, request)


fb.run(decide)
