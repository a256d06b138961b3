"""The lobby's browser tests use the human seats' fixtures (chromium, `arena` processes)."""

from ..human.conftest import browser, run_arena

__all__ = ["browser", "run_arena"]
