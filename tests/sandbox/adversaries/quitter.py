"""Exits at once, before connecting."""

from adversary import report

report("quit", "exiting at once")
raise SystemExit(0)
