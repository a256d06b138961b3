"""Who a ladder request comes from, and the checks every write passes.

* The API: `Authorization: Bearer TOKEN` (the token `arena ladder user add`
  printed); the store finds the user by the token's hash (tokens.py).
* The browser: a session cookie signed by the ladder's own key (made once,
  kept in its store), HttpOnly, SameSite=Strict, 12 hours;
  signing in posts the token once, with a CSRF token bound to a cookie of
  the sign-in form; every form and upload after that carries the CSRF
  token of the session (guard.csrf_token), and an Origin of this server.
* Every write, and every request that presents a token that opens
  nothing, counts against the client address's rate limit: past it the
  answer is 429 with Retry-After, before any work.

Nothing here logs a token, a cookie or a CSRF token.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.responses import Response

from arena.ladder.store import Store, User
from arena.web.guard import RateLimiter, Signer, client_of, csrf_ok, same_origin
from arena.web.ladder.views import Viewer

SESSION_COOKIE = "arena_ladder"
SIGNIN_COOKIE = "arena_ladder_signin"
SESSION_SECONDS = 12 * 3600
SIGNIN_SECONDS = 3600
COOKIE_PATH = "/"  # the player of an owner's validation match reads /api/ladder/...
KEY_META = "session_key"


@dataclass
class Auth:
    store: Store
    signer: Signer
    limiter: RateLimiter

    @classmethod
    def of(cls, store: Store, writes_per_minute: int) -> Auth:
        key = store.meta_once(KEY_META, lambda: secrets.token_hex(32))
        return cls(store, Signer(bytes.fromhex(key)), RateLimiter(writes_per_minute))

    # -- who ------------------------------------------------------------------
    def session(self, request: HTTPConnection) -> tuple[User, str] | None:
        """The signed-in user and the session's nonce (the CSRF token's base)."""
        value = self.signer.unsign(request.cookies.get(SESSION_COOKIE, ""))
        if value is None or ":" not in value:
            return None
        user_id, nonce = value.split(":", 1)
        user = self.store.user(int(user_id)) if user_id.isdigit() else None
        return None if user is None else (user, nonce)

    def bearer(self, request: HTTPConnection) -> User | None:
        """The user of the request's bearer token; None without one.
        HTTPException 401 for a token that opens nothing (counted against
        the client's rate limit: guessing tokens is a write)."""
        header = request.headers.get("authorization", "")
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        user = self.store.user_for_token(token.strip()) if scheme.lower() == "bearer" else None
        if user is None:
            self.limit(request)
            raise HTTPException(401, "the token opens nothing on this ladder (send "
                                "Authorization: Bearer TOKEN, as `arena ladder user add` printed it)",
                                headers={"WWW-Authenticate": "Bearer"})
        return user

    def viewer(self, request: HTTPConnection, api: bool = False) -> Viewer:
        """Who reads a page (the cookie) or the API (a bearer token, else the cookie)."""
        if api:
            user = self.bearer(request)
            if user is not None:
                return Viewer(user)
        found = self.session(request)
        return Viewer(found[0] if found else None)

    # -- checks ---------------------------------------------------------------
    def limit(self, request: HTTPConnection) -> None:
        wait = self.limiter.hit(client_of(request))
        if wait:
            raise HTTPException(429, f"too many requests from this address: at most "
                                f"{self.limiter.per_minute} writes a minute; try again in {wait} s",
                                headers={"Retry-After": str(wait)})

    def browser_write(self, request: HTTPConnection, given_csrf: str) -> User:
        """A write from a signed-in browser: rate limit, origin, session, CSRF."""
        self.limit(request)
        if not same_origin(request):
            raise HTTPException(403, "refused: this form was sent from another site")
        found = self.session(request)
        if found is None:
            raise HTTPException(401, "sign in first (/ladder/signin, with your token)")
        user, nonce = found
        if not csrf_ok(self.signer, nonce, given_csrf):
            raise HTTPException(403, "refused: the form's CSRF token is missing or not this "
                                "session's (reload the page)")
        return user

    def csrf(self, request: HTTPConnection) -> str:
        found = self.session(request)
        return self.signer.derive("csrf", found[1]) if found else ""

    # -- cookies --------------------------------------------------------------
    def signin_form(self, request: HTTPConnection) -> tuple[str, Callable[[Response], None]]:
        """The sign-in form's CSRF token, and what sets the cookie it is bound to."""
        pre = self.signer.unsign(request.cookies.get(SIGNIN_COOKIE, "")) or secrets.token_hex(16)
        signed = self.signer.sign(pre, SIGNIN_SECONDS)

        def attach(response: Response) -> None:
            response.set_cookie(SIGNIN_COOKIE, signed, httponly=True, samesite="strict",
                                path=COOKIE_PATH, max_age=SIGNIN_SECONDS)

        return self.signer.derive("signin", pre), attach

    def signin_ok(self, request: HTTPConnection, given: str) -> bool:
        pre = self.signer.unsign(request.cookies.get(SIGNIN_COOKIE, ""))
        return pre is not None and bool(given) and secrets.compare_digest(
            given.encode(), self.signer.derive("signin", pre).encode())

    def start_session(self, user: User, response: Response) -> None:
        value = self.signer.sign(f"{user.id}:{secrets.token_hex(16)}", SESSION_SECONDS)
        response.set_cookie(SESSION_COOKIE, value, httponly=True, samesite="strict",
                            path=COOKIE_PATH, max_age=SESSION_SECONDS)
        response.delete_cookie(SIGNIN_COOKIE, path=COOKIE_PATH)

    def end_session(self, response: Response) -> None:
        response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
