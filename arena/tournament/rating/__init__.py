"""The rating model: TrueSkill fits of duplicate results (ratings.py) and the update it
runs (trueskill_math.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
