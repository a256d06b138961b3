"""The lobby's routes with the human seats' routes, ready for an app.

    lobby, routes = lobby_routes_for(LobbyConfig(folder, bots))
    app = create_app(paths, extra_routes=routes)      # arena serve --lobby
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute

from arena.web.human.routes import ReviewDesk, Tables, human_routes
from arena.web.lobby.games import Lobby, LobbyConfig
from arena.web.lobby.routes import lobby_routes


def lobby_routes_for(config: LobbyConfig) -> tuple[Lobby, list[BaseRoute]]:
    tables = Tables()
    lobby = Lobby(config, tables)

    def title(game: str) -> str:
        g = lobby.games.get(game)
        return f"game {game} · {g.preset}" if g else f"game {game}"

    def links(game: str) -> list[tuple[str, str]]:
        # The game's page: its result, the replay player and the replay file
        # once it is over (and the lobby's rematch).
        return [("the game's page: result, replay and rematch", f"/lobby/game/{game}")]

    def replay(game: str) -> Path | None:
        """A finished game's replay: what its people may review."""
        stored = lobby.store.game(game)
        if stored is None or stored["status"] != "finished" or not stored["replay_path"]:
            return None
        path = Path(stored["replay_path"])
        return path if path.is_file() else None

    def player(game: str, seat: int) -> str:
        url = lobby.players.get(game, "")
        return f"{url}?view={seat}" if url else ""

    desk = ReviewDesk(lobby.reviews, replay, player)
    return lobby, [*human_routes(tables, title=title, links=links, review=desk), *lobby_routes(lobby)]
