"""A stand-in for a person's browser: joins by the link over HTTP, opens the
seat's websocket, records every frame it is sent (text, as received) and
answers each decision as a simple bot would. Real sockets, no page."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
from typing import Any
from urllib.parse import urlsplit

import websockets


def join(url: str) -> tuple[str, str]:
    """Open a join link; returns (the seat page's path, its cookie header)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=10)
    try:
        conn.request("GET", parts.path)
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 303, f"join {url}: {resp.status}"
        cookie = resp.getheader("set-cookie") or ""
        return resp.getheader("location") or "", cookie.split(";", 1)[0]
    finally:
        conn.close()


class BrowserClient:
    def __init__(self, mode: str = "passive", seed: int = 0) -> None:
        self.mode = mode
        self.rng = random.Random(seed)
        self.frames: list[str] = []

    def choose(self, legal: list[str]) -> str:
        if self.mode == "random":
            return self.rng.choice(legal)
        return "pass" if "pass" in legal else legal[0]

    async def play(self, url: str) -> None:
        parts = urlsplit(url)
        path, cookie = await asyncio.to_thread(join, url)
        uri = f"ws://{parts.hostname}:{parts.port}{path}/socket"
        async with websockets.connect(uri, additional_headers={"Cookie": cookie}) as ws:
            async for text in ws:
                assert isinstance(text, str)
                self.frames.append(text)
                frame: dict[str, Any] = json.loads(text)
                if frame["type"] == "closed":
                    return
                msg = frame.get("message", {})
                if "decision" in msg:
                    d = msg["decision"]
                    await ws.send(json.dumps({"type": "act", "seq": d["seq"],
                                              "action": self.choose(list(d["legal_texts"]))}))
