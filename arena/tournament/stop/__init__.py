"""When to stop playing: the rules the run loop asks (rule.py: the protocol and
fixed; settled.py: a tournament's adaptive stop; sprt_rule.py: a gauntlet's test)
and their mathematics (adaptive.py, sprt.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
