"""A tournament run: plan, play, record (coordinator.py); what a run and a gauntlet share
around their executor (playing.py); progress lines (progress.py); one run per folder (runlock.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
