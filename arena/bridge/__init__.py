"""Bridges: the arena's own programs that speak gRPC to the referee for a
player that does not (a bot over stdin/stdout: `arena.bridge.stdio`)."""
