"""Only ever says hello with wrong tokens: it never takes its seat."""


import time

import faultbot as fb

for attempt in range(3):
    how = fb.play(fb.Connection(f"guess-{attempt}-" + fb.token()[:4]))
    fb.say(f"attempt {attempt} ended: {how}")
time.sleep(120)
