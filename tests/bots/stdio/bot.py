"""A stdio bot (bot.toml `protocol = "stdio"`) for tests: JSON lines only,
no gRPC and nothing of the arena.

    python3 bot.py MODE [OUT_FILE]

Modes: `passive` passes when it may, else plays the first legal action;
`garbage` answers decisions 1..5 with a line that is not a BotMessage in
JSON (not JSON; an unknown field; a line over 64 KiB; bytes that are not
UTF-8; an action text that does not parse), then plays as `passive`;
`crash` exits with status 3 at decision 3; `slow` sleeps 2 s before its
first answer. With OUT_FILE, every line received is appended to it, as is;
OUT_FILE "-" writes each one to stderr (the bot's log) as "REC <line>"
(a process-level bot's /tmp is its own as root: docs/sandbox.md).
"""

import json
import sys
import time

mode = sys.argv[1]
to_log = len(sys.argv) > 2 and sys.argv[2] == "-"
out = open(sys.argv[2], "ab") if len(sys.argv) > 2 and not to_log else None  # noqa: SIM115 - whole match


def send(line: bytes) -> None:
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.buffer.flush()


def reply(seq: str, text: str) -> bytes:
    return json.dumps({"reply": {"seq": seq, "text": text}}).encode()


GARBAGE = {
    1: lambda seq: b"this is not json",
    2: lambda seq: json.dumps({"reply": {"seq": seq, "text": "pass", "colour": 1}}).encode(),
    3: lambda seq: json.dumps({"reply": {"seq": seq, "text": "x" * 70_000}}).encode(),
    4: lambda seq: b'{"reply": {"seq": "' + seq.encode() + b'", "text": "\xff\xfe"}}',
    5: lambda seq: reply(seq, "teleport ZZ"),
}

send(json.dumps({"hello": {"bot_name": "stdio-test", "protocol_version": 2}}).encode())
decisions = 0
for raw in sys.stdin.buffer:
    if out is not None:
        out.write(raw)
        out.flush()
    if to_log:
        sys.stderr.buffer.write(b"REC " + raw)
        sys.stderr.buffer.flush()
    msg = json.loads(raw)
    if "decision" not in msg:
        continue
    decisions += 1
    request = msg["decision"]
    seq, legal = request["seq"], request["legal_texts"]
    if mode == "crash" and decisions == 3:
        print("stdio test bot: exiting with status 3", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "slow" and decisions == 1:
        time.sleep(2)
    if mode == "garbage" and decisions in GARBAGE:
        send(GARBAGE[decisions](seq))
        continue
    send(reply(seq, "pass" if "pass" in legal else legal[0]))
