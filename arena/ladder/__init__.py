"""A ladder: a standing competition that bot authors submit to from anywhere.

The modules: config.py (ladder.toml), store.py (ladder.sqlite: users,
bots, submissions, blocks, matches, ratings), tokens.py (API tokens,
stored hashed), archive.py (an upload read and checked in memory),
intake.py (a submission taken in: quotas, archive, bot, store),
matchmaking.py (the next block's three bots), blocks.py (a block's and a
validation match's ids, deals, specs and verdicts), season.py (the match
lanes of a running ladder), errors.py (LadderError, the base of every
refusal). The web pages and the API are arena.web.ladder; the commands
arena.cli.ladder_cmd. docs/ladder.md is the guide.
"""
