"""A gauntlet: one bot against others, set after set, until SPRT decides: its sets, scores
and verdict (sets.py) and how it is played and stored (run.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
