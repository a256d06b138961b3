"""What a bot is, as every part of the arena sees it: `BotSpec`, the bot a
bot.toml describes (arena.sandbox.botfile reads and checks the file).

A plain value at the bottom of the layers (ARCHITECTURE.md): the sandbox
starts it, the referee seats it, tournaments register it, the web app and
the command line show it, and none of them needs another's module for it.

    from arena.manifest import BotSpec
"""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOLS = ("grpc", "stdio")
# How a stdio bot is started: the bridge (the arena's own code, run by the
# arena's interpreter: `python3` at every level) runs the bot's command.
# -P: `-m` would put the working directory, the bot's folder, first on the
# bridge's sys.path, and a file of the bot's named like a module the bridge
# imports (queue.py, json.py, an `arena/` of its own) would replace it.
BRIDGE = ("python3", "-P", "-m", "arena.bridge.stdio")


@dataclass(frozen=True)
class BotSpec:
    """A bot ready to be started: everything the sandbox and referee need."""

    name: str
    version: str
    language: str
    path: str                     # absolute path of the bot's folder
    run: tuple[str, ...] = ()     # argv, relative to the bot's folder
    image: str = ""               # docker image, "" if none
    description: str = ""
    protocol: str = "grpc"        # "grpc" | "stdio" (see PROTOCOLS)
    content_hash: str = ""        # sha256 of the folder's files (sandbox.botfile.folder_hash)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def argv(self) -> tuple[str, ...]:
        """The command the sandbox starts, in the bot's folder: `run`, or for
        a stdio bot the bridge, which starts `run` itself."""
        if self.protocol == "stdio":
            return (*BRIDGE, "--name", self.name, "--version", self.version, "--", *self.run)
        return self.run
