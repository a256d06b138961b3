"""A uvicorn server inside the caller's event loop (beside a match).

uvicorn's own `serve` takes over SIGINT and SIGTERM; here the caller keeps
them (`arena play` stops its match and bots on either), so the server is
started and stopped as one more task of the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from typing import Any, Self

import uvicorn

from arena.web.human.routes import MESSAGE_LIMIT
from arena.web.listen import listen


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class Serving:
    """`async with Serving(app, host, port) as s:` serves `app`; `s.url` is its address."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        config = uvicorn.Config(app, host=host, port=port, lifespan="off", log_level="warning",
                                ws="websockets-sansio", ws_max_size=MESSAGE_LIMIT, access_log=False)
        self.server = _Server(config)
        self.host = host
        self._task: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        sock = self.server.servers[0].sockets[0]
        return int(sock.getsockname()[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def __aenter__(self) -> Self:
        # Bound here, so that an address in use is an OSError of ours (uvicorn
        # would call sys.exit inside the loop).
        try:
            sock = listen(self.host, self.server.config.port)
        except OSError as exc:  # the caller's one line: where, and why
            why = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else (exc.strerror or str(exc))
            raise OSError(f"cannot listen on {self.host}:{self.server.config.port}: {why}") from None
        self._task = asyncio.get_running_loop().create_task(self.server.serve(sockets=[sock]))
        while not self.server.started:
            if self._task.done():
                sock.close()
                raise OSError(f"the web server on {self.host} did not start")
            await asyncio.sleep(0.02)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, SystemExit):
                await self._task
