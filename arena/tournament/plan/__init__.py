"""What a tournament is: its tournament.toml (config.py) and match settings, the duplicate
schedule and its seeds (schedule.py), the bots and their versions (registry.py), the seed
commitment (secrecy.py) and the settings its results were played under (fingerprint.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
