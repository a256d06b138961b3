"""Write a 1000 bot in Python.

    import sys

    from arena.sdk import Bot, run

    class FirstLegal(Bot):
        name = "first-legal"

        def act(self, obs):
            # obs.hand, obs.phase, obs.trick ... (the seat's observation: what it may know,
            #   docs/protocol.md#what-a-seat-may-know)
            # obs.legal_actions: engine actions; obs.legal_texts: the same as text
            #   (docs/protocol.md#action-notation)
            return obs.legal_actions[0]      # or a text such as "pass"

    if __name__ == "__main__":
        sys.exit(run(FirstLegal()))

`run` reads ARENA_ADDRESS and ARENA_TOKEN, connects, says hello, answers
every decision request with `act(...)`, calls the optional hooks
(`on_match_start`, `on_event`, `on_deal_end`, `on_match_end`) and returns
the exit status: 0 when the match ended, 1 if the referee refused the bot,
the stream ended before the match did, or the bot failed. A bot that raises
in `act` or a hook, or whose `act` returns something that is not an action
or its text, is not rescued: the traceback is printed, the stream closes
(the referee counts a crash) and `run` returns 1, unless
`catch_errors=True` is given, which prints the traceback and plays on (the
first legal action in place of `act`'s).

For bots that search, `arena.sdk.belief` (imported on its own: it loads the
rules engine) draws deals of the unseen cards consistent with an
observation and gives the engine state for each (docs/bots.md "From greedy
to search").
"""

from arena.sdk.bot import Bot, Observation, run

__all__ = ["Bot", "Observation", "run"]
