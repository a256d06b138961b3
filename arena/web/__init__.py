"""`arena serve`: pages, replay player, live tournaments, human seats and the lobby."""
