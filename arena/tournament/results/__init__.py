"""What a tournament shows of its results: the rating table (standings.py), its published
files (publish.py), the results bundle and its format (bundle.py, bundle_format.py) and
read-only match queries for pages (browse.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
