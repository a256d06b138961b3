"""`arena verify`: re-check a published results bundle from its files alone.

source.py reads the bundle (a folder or a URL), load.py turns bundle.json
into checked values, bundle_manifest.py checks the hash chain (the
bundle's manifest.json; arena/manifest.py is a bot's), draw.py the seed
commitment, the schedule and the deal seeds, replays.py re-plays every
replay with the engine, table.py recomputes the table, run.py runs them in
order. Each check is one line; the first difference stops the run
(Mismatch), bad input is one line (VerifyError).
"""
