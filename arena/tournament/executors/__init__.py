"""Where matches are played: the Executor protocol and what every executor shares
(worker.py), the local process pool (local.py), a Dask cluster (dask_executor.py, cluster.py,
honest.py), one match per deal at once (deal_gate.py) and CPU slots (cpus.py).

Import from arena.tournament (the face), not from here, outside the package.
"""
