"""Tournament engine for bots that play the card game 1000."""
