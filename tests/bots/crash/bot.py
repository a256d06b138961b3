"""Plays 3 decisions, starts a child that would sleep for minutes (it must
be killed with the bot's process group), then exits mid-game."""

import os
import subprocess
import sys

import faultbot as fb


def decide(n: int, request: fb.pb.DecisionRequest) -> bytes:
    if n == 4:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "arena-fault-bot"])
        fb.say(f"left child {child.pid} behind; exiting now")
        os._exit(3)
    return fb.first_legal(request.seq, request)


fb.run(decide)
