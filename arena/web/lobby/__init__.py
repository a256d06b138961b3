"""`arena serve --lobby`: games between people and bots, joined by link."""
