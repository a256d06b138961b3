"""Live tournament pages: server-sent events while `arena tournament run` plays.

The runner writes the store; this process only reads it. Each open page
holds one event stream, which polls the store's signature
(`browse.signature`: its files' sizes and times) and the counts of planned,
running, finished and failed matches, and sends an `update` event when they
change; the page then fetches its live part (/t/{t}/live) and swaps it in.
A comment line every 15 s keeps proxies from closing an idle stream.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator

import anyio
from starlette.requests import Request
from starlette.responses import StreamingResponse

from arena.tournament import Store, StoreError, browse
from arena.web.sources import Tournament

KEEPALIVE_SECONDS = 15.0


def _signature(t: Tournament) -> tuple[tuple[object, ...], dict[str, int]] | None:
    try:
        store = Store(t.store_path, readonly=True)
    except StoreError:
        return None
    try:
        return browse.signature(store), store.counts()
    finally:
        store.close()


def stream(request: Request, t: Tournament, poll_seconds: float,
           stopping: threading.Event | None = None) -> StreamingResponse:
    """The page's event stream; it ends with a `closed` event once `stopping`
    is set (the server stops: uvicorn waits for the requests in flight)."""
    async def events() -> AsyncIterator[str]:
        last: object = ()
        quiet = 0.0
        yield "retry: 2000\n\n"
        while not await request.is_disconnected():
            if stopping is not None and stopping.is_set():
                yield "event: closed\ndata: the server is stopping\n\n"
                return
            sig = await anyio.to_thread.run_sync(_signature, t)
            if sig != last:
                last = sig
                quiet = 0.0
                counts = {} if sig is None else sig[1]
                yield f"event: update\ndata: {json.dumps(counts)}\n\n"
            elif quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": keep-alive\n\n"
            await anyio.sleep(poll_seconds)
            quiet += poll_seconds

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
