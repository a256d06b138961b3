"""`arena serve`: pages, replay player, live tournaments, human seats and the lobby.

    from arena.web.app import create_app
    app = create_app(["tournaments/sample"])

Modules: app.py (routes, errors), sources.py (what is served, by name),
pages.py (each page's data, through arena.tournament), views.py (the table
view JSON, built by the engine's observation), player.py (a replay's steps
for one viewer), replays.py (their cached JSON), live.py (server-sent
events), urls.py (links for the server and the static export), export.py
(the static files); human/ (people's seats in the browser). Templates and
static files are package data.
"""
