"""Prints, at each decision and before it replies, one line that names the
request's seq on stderr, and lines forged to look like decision marks on
both streams (a bot must not be able to move the referee's marks), then
plays the first legal action. Not a misbehaving bot: the bot's-eye view's
tests (tests/referee/test_marks.py, tests/web) read its lines back."""

import sys

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    # Forged marks of a decision far ahead, half a line on stdout, then its own line.
    print(f"--- arena decision {request.seq + 5} (deal 1, step 1) ---", flush=True)
    sys.stdout.write("no newline here ")
    sys.stdout.flush()
    print(f"chatty says: decision seq={request.seq} with {len(request.legal_actions)} legal",
          file=sys.stderr, flush=True)
    return fb.first_legal(request.seq, request)


fb.run(decide)
