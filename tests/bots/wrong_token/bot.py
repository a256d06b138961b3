"""Says hello with a wrong token first (must be refused and change nothing),
then connects with its own token and plays the whole match legally."""


import faultbot as fb

wrong = fb.token()[::-1] + "x"
how = fb.play(fb.Connection(wrong))
fb.say(f"wrong-token connection ended: {how}")
fb.run()
