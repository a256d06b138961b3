"""The lobby's routes with the human seats' routes, ready for an app.

    lobby, routes = lobby_routes_for(LobbyConfig(folder, bots))
    app = create_app(paths, extra_routes=routes)      # arena serve --lobby
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from arena.web.human.routes import Tables, human_routes
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

    return lobby, [*human_routes(tables, title=title, links=links), *lobby_routes(lobby)]
