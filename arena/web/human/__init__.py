"""Human seats: a person plays a seat in the browser through a bridge that
is a bot of the referee (seat.py); the pages and socket (routes.py); a
match with people in it (play.py)."""
