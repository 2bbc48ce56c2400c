"""The metrics and health server: ``/metrics``, ``/healthz`` and ``/readyz`` on one port.

It runs on the bot's own event loop (aiohttp comes with discord.py), so ``/healthz`` answering
at all is the proof that the loop is not stuck. ``/readyz`` asks the bot's readiness check
and answers 503 with the reasons when it is not ready. It listens on 127.0.0.1 unless told
otherwise: the figures are for the host's own Prometheus, not the internet.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops.metrics import REGISTRY

# the reasons the bot is not ready (empty: ready)
ReadinessCheck = Callable[[], Awaitable[list[str]]]


def health_app(ready: ReadinessCheck) -> web.Application:
    """The aiohttp application serving the three paths."""

    async def metrics(_: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(_: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(_: web.Request) -> web.Response:
        problems = await ready()
        if problems:
            return web.Response(status=503, text="".join(f"{p}\n" for p in problems))
        return web.Response(text="ready\n")

    app = web.Application()
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    return app


class HealthServer:
    """The running server; ``await HealthServer.start(...)``, then ``close()``."""

    def __init__(self, runner: web.AppRunner, site: web.TCPSite) -> None:
        self._runner = runner
        self.site = site

    @classmethod
    async def start(cls, host: str, port: int, ready: ReadinessCheck) -> HealthServer:
        """Listen on ``host``:``port`` (port 0: any free port, see ``port``)."""
        runner = web.AppRunner(health_app(ready), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        return cls(runner, site)

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self._runner.addresses[0][1])

    async def close(self) -> None:
        """Stop listening."""
        await self._runner.cleanup()
