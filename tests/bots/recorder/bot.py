"""Records every message the referee sends it, byte for byte, and plays.

    python3 bot.py arena-fault-bot [OUT_FILE [random|passive|lottery:red|lottery:black]]

OUT_FILE gets each received message as a 4-byte big-endian length and the
raw bytes exactly as they came off the wire (no record without OUT_FILE).
OUT_FILE "-" writes each one to stdout instead, as a line "REC <base64>":
at the process level as root a bot's /tmp is its own and dies with it
(docs/sandbox.md), so the test reads the record from the bot's log.
`random` (default) plays a legal action chosen by a generator seeded from
ARENA_SEED, to visit many situations; `passive` passes when it may and
otherwise plays the first legal action: a function of its own view only.
`lottery:COLOUR` plays as `passive`, but runs the Finnish lottery when it
may and guesses COLOUR. A mode ending in `+turns` (`random+turns`) also asks
for Turn notices in its Hello (docs/protocol.md#turn-notices).
Not a misbehaving bot: tests/referee/test_hidden_on_wire.py uses it.
"""

import base64
import os
import random
import struct
import sys

import faultbot as fb

out_path = sys.argv[2] if len(sys.argv) > 2 else ""
mode = sys.argv[3] if len(sys.argv) > 3 else "random"
turns = mode.endswith("+turns")
mode = mode.removesuffix("+turns")
rng = random.Random(os.environ.get("ARENA_SEED", "0"))


def choose(request: fb.pb.DecisionRequest) -> fb.pb.Action:
    legal = list(request.legal_actions)
    if mode.startswith("lottery:"):
        colour = mode.split(":", 1)[1]
        for action in legal:
            if action.kind == "lottery" or (action.kind == "guess" and action.color == colour):
                return action
    if mode == "passive" or mode.startswith("lottery:"):
        passes = [a for a in legal if a.kind == "pass"]
        return passes[0] if passes else legal[0]
    return rng.choice(legal)


def main() -> None:
    to_log = out_path == "-"
    out = open(out_path, "wb") if out_path and not to_log else None  # noqa: SIM115 - open for the whole match
    conn = fb.Connection(raw=True)
    conn.send(fb.hello(fb.token(), turn_notices=turns))
    try:
        for data in conn.responses:
            if to_log:
                sys.stdout.write("REC " + base64.b64encode(data).decode() + "\n")
                sys.stdout.flush()
            if out is not None:
                out.write(struct.pack(">I", len(data)) + data)
                out.flush()
            msg = fb.pb.RefereeMessage.FromString(data)
            body = msg.WhichOneof("body")
            if body == "decision":
                conn.send(fb.reply_action(msg.decision.seq, choose(msg.decision)))
            elif body in ("match_end", "refused"):
                break
    finally:
        conn.close()
        if out is not None:
            out.close()


main()
