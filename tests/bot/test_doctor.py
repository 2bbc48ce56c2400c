"""``./run doctor``: each broken set-up it can find, found and told how to fix."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.ops.doctor import examine, main
from bot.ops.migrate import main as migrate
from bot.storage import Storage

BOT_ID = 123456789012345678
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bot's folder with a good .env; no setting comes from the test's environment."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    write_env(tmp_path, "")
    return tmp_path


def write_env(folder: Path, extra: str, token: str = TOKEN) -> Path:
    env = folder / ".env"
    env.write_text(f"DISCORD_TOKEN={token}\nDATABASE_URL={folder / 'cardroom.db'}\n{extra}")
    env.chmod(0o600)
    return env


async def fixes(folder: Path, online: bool = False, api: str = "") -> list[str]:
    """What the doctor says to fix."""
    return [f.text for f in await examine(folder / ".env", online, api) if not f.ok]


def test_a_good_set_up_needs_no_fix_and_gets_its_invite_url(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate"]) == 2  # not one of its options
    (folder / "cardroom.db").touch()
    assert migrate([]) == 0
    assert main([]) == 0
    printed = capsys.readouterr().out
    assert "FIX" not in printed
    # View Channel, Send Messages, Embed Links, Attach Files: 1024 + 2048 + 16384 + 32768;
    # Create Public Threads, Send Messages in Threads: 2**35 + 2**38
    url = f"client_id={BOT_ID}&scope=bot+applications.commands&permissions=309237697536"
    assert url in printed


@pytest.mark.parametrize(
    ("env", "token", "fix"),
    [
        ("", "", "DISCORD_TOKEN is not set"),
        ("", "my-client-secret", "DISCORD_TOKEN is not a bot token"),
        ("", "bm90IGFuIGlk.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB", "not a bot token"),
        ("TURN_SECONDS=soon\n", TOKEN, "TURN_SECONDS"),
        ("DEV_GUILD_ID=42\n", TOKEN, "DEV_GUILD_ID is set"),
        ("METRICS_PORT=9108\nMETRICS_HOST=0.0.0.0\n", TOKEN, "METRICS_HOST=0.0.0.0 shows"),
        ("DATABASE_URL=postgresql://bot@/none?host=/nowhere\n", TOKEN, "the database:"),
    ],
)
async def test_broken_settings_are_found(folder: Path, env: str, token: str, fix: str) -> None:
    write_env(folder, env, token)
    [found] = await fixes(folder)
    assert fix in found


async def test_a_world_readable_env_file_is_found(folder: Path) -> None:
    (folder / ".env").chmod(0o644)
    assert await fixes(folder) == [
        f"{folder / '.env'} is readable by every user: chmod 600 {folder / '.env'}"
    ]


async def test_a_database_not_migrated_is_found(folder: Path) -> None:
    await (await Storage.open(folder / "cardroom.db", up_to=3)).close()
    [found] = await fixes(folder)
    assert "the database lacks" in found and "./run migrate" in found


@pytest.fixture
async def discord_api() -> AsyncIterator[tuple[str, dict[str, int]]]:
    """A stand-in for Discord's /applications/@me: the status and flags it answers."""
    answer = {"status": 200, "flags": 0}

    async def application(request: web.Request) -> web.Response:
        assert request.headers["Authorization"] == f"Bot {TOKEN}"
        return web.json_response({"flags": answer["flags"]}, status=answer["status"])

    app = web.Application()
    app.router.add_get("/applications/@me", application)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", answer
    await runner.cleanup()


async def test_online_a_refused_token_and_a_missing_intent_are_found(
    folder: Path, discord_api: tuple[str, dict[str, int]]
) -> None:
    api, answer = discord_api
    write_env(folder, "MEMBERS_INTENT=true\n")
    await (await Storage.open(folder / "cardroom.db")).close()
    [intent] = await fixes(folder, online=True, api=api)
    assert "the Server Members intent is off" in intent
    answer["flags"] = 1 << 15  # GATEWAY_GUILD_MEMBERS_LIMITED: switched on
    assert await fixes(folder, online=True, api=api) == []
    answer["status"] = 401
    assert await fixes(folder, online=True, api=api) == [
        "Discord refuses DISCORD_TOKEN: reset it (Bot → Reset Token)"
    ]
