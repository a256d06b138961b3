"""What the referee's gate (arena/referee/socket_gate.py) costs per round trip.

    .venv/bin/python benchmarks/gate.py [--rounds R] [--exchanges N] [--style sync|aio]

The echo of benchmarks/referee.py (a grpc.aio server writes a decision
request of the referee's mean size to a client process, which answers with
a reply's size) run two ways in alternation, R rounds of N exchanges each:
**direct**, the client on the gRPC server's own socket, and **gated**, the
client on a gate's socket in front of it (peer check at connect, frame
headers read, bytes relayed both ways: what every seat's connection goes
through in a match). Printed per round and as the median over rounds: the
mean round trip each way and the ratio gated / direct, and the referee
side's CPU per round trip each way (what the gate adds to the referee's
work, which a loaded machine blurs far less than wall time), all measured
in this run (this machine's speed drifts, so
each ratio is taken within one round). No assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

import grpc

from arena.referee.socket_gate import Gate, GateEvents

HERE = os.path.dirname(os.path.abspath(__file__))
ASK, ANSWER = 575, 17  # bytes: benchmarks/referee.py's mean request and reply


async def round_trips(exchanges: int, style: str, gated: bool) -> tuple[list[float], float]:
    """Wall seconds of each round trip (the warm-up left out), and the
    referee side's CPU seconds per round trip (all its threads: gRPC's and
    the gate's), which the load of the machine blurs far less."""
    times: list[float] = []
    cpu: list[float] = []
    done = asyncio.Event()
    ask = b"r" * ASK

    async def play(_request: object, context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        await context.read()  # hello
        cpu.append(time.process_time())
        for _ in range(exchanges):
            t0 = time.perf_counter()
            await context.write(ask)
            if await context.read() is grpc.aio.EOF:
                break
            times.append(time.perf_counter() - t0)
        cpu.append(time.process_time())
        done.set()

    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
        "arena.v1.Referee", {"Play": grpc.stream_stream_rpc_method_handler(play)}),))
    with tempfile.TemporaryDirectory() as tmp:
        inner, public = f"{tmp}/inner.sock", f"{tmp}/public.sock"
        server.add_insecure_port(f"unix:{inner}")
        await server.start()
        gate = None
        if gated:
            ready = asyncio.Event()
            ready.set()
            gate = Gate(0, public, inner, GateEvents(identify=lambda _s, _p, _u: 0), ready)
            await gate.start()
        client = await asyncio.create_subprocess_exec(
            sys.executable, os.path.join(HERE, "referee.py"), "--echo-client",
            f"unix:{public if gated else inner}", str(ANSWER), style)
        try:
            await asyncio.wait_for(done.wait(), timeout=300)
        finally:
            await server.stop(grace=0.5)
            if gate is not None:
                await gate.close()
            try:
                await asyncio.wait_for(client.wait(), timeout=10)
            except TimeoutError:
                client.kill()
                await client.wait()
    per_trip = (cpu[-1] - cpu[0]) / max(1, len(times))
    return times[min(50, len(times) // 10):], per_trip  # the first ones warm up both sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--exchanges", type=int, default=1500)
    parser.add_argument("--style", choices=("sync", "aio"), default="aio")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ratios, extra, cpu_ratios, cpu_extra = [], [], [], []
    for r in range(args.rounds):
        d_times, d_cpu = asyncio.run(round_trips(args.exchanges, args.style, False))
        g_times, g_cpu = asyncio.run(round_trips(args.exchanges, args.style, True))
        direct, gated = statistics.mean(d_times), statistics.mean(g_times)
        ratios.append(gated / direct)
        extra.append(gated - direct)
        cpu_ratios.append(g_cpu / d_cpu)
        cpu_extra.append(g_cpu - d_cpu)
        print(f"  round {r + 1}: wall direct {direct * 1e6:.0f} us, gated {gated * 1e6:.0f} us per round "
              f"trip: {gated / direct:.2f}x; referee CPU direct {d_cpu * 1e6:.0f} us, gated "
              f"{g_cpu * 1e6:.0f} us: {g_cpu / d_cpu:.2f}x (+{(g_cpu - d_cpu) * 1e6:.0f} us)")
    print(f"gated / direct, {args.style} client, wall: median {statistics.median(ratios):.2f}x "
          f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x over {args.rounds} rounds, "
          f"median {statistics.median(extra) * 1e6:+.0f} us per round trip)")
    print(f"gated / direct, {args.style} client, referee CPU: median {statistics.median(cpu_ratios):.2f}x "
          f"(min {min(cpu_ratios):.2f}x, max {max(cpu_ratios):.2f}x, "
          f"median {statistics.median(cpu_extra) * 1e6:+.0f} us per round trip)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
