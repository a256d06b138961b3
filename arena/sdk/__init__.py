"""Write a 1000 bot in Python.

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
        run(FirstLegal())

`run` reads ARENA_ADDRESS and ARENA_TOKEN, connects, says hello, answers
every decision request with `act(...)`, calls the optional hooks
(`on_match_start`, `on_event`, `on_deal_end`, `on_match_end`) and returns
0 when the match ends (1 if the referee refused the bot). A bot that raises
in `act` is not rescued: the exception ends the process (the referee counts
a crash) unless `catch_errors=True` is given, which plays the first legal
action instead and prints the traceback to stderr.
"""

from arena.sdk.bot import Bot, Observation, run

__all__ = ["Bot", "Observation", "run"]
