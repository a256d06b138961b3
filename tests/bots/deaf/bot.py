"""Says Hello, then never reads a message: the referee's writes to it fill
the stream's flow-control window and then wait, which the referee must
bound (a bot that does not read is gone) without holding up the match.

Its channel does not probe the bandwidth, so the window stays at gRPC's
initial size and fills after some hundred requests."""

import os
import queue
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultbot as fb
import grpc

channel = grpc.insecure_channel(os.environ["ARENA_ADDRESS"], options=[("grpc.http2.bdp_probe", 0)])
out: "queue.Queue[bytes]" = queue.Queue()
out.put(fb.hello(fb.token()))
play = channel.stream_stream(fb.METHOD, request_serializer=lambda b: b,
                             response_deserializer=lambda b: b)
responses = play(iter(out.get, None))  # never iterated: nothing is read
fb.say("said hello; reading nothing from now on")
time.sleep(3600)
