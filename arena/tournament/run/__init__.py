"""A tournament run: plan, play, record (coordinator.py); the one play loop of a run and a
gauntlet, under a stop rule (loop.py); what they share around their executor (playing.py);
progress lines (progress.py); one run per folder (runlock.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
