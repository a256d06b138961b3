"""When to stop playing: the adaptive stop of a tournament (adaptive.py) and the sequential
probability ratio test of a gauntlet (sprt.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
