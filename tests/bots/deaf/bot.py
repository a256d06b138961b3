"""Says Hello, then never reads a message: the referee's writes to it fill
the stream's flow-control window and then wait, which the referee must
bound (a bot that does not read is gone) without holding up the match.

Its channel does not probe the bandwidth, so the window stays at gRPC's
initial size and fills after some hundred requests."""

import time

import faultbot as fb

# `responses` is never iterated: nothing is read.
conn = fb.Connection(fb.token(), raw=True, options=(("grpc.http2.bdp_probe", 0),))
fb.say("said hello; reading nothing from now on")
time.sleep(3600)
