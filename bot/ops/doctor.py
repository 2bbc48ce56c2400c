"""``./run doctor``: checks a production set-up and prints what to fix.

Offline it checks the settings, the token's shape, that ``.env`` (which holds the token) is
not readable by every user, that the database answers and is migrated, and prints the
invite URL with exactly the permissions the bot needs. ``--online`` also asks Discord
whether the token is accepted and whether the privileged intent the settings ask for is
switched on for the application (the bot cannot log in otherwise).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord

from bot.ops.logs import TOKEN
from bot.settings import ENV_FILE, Settings, SettingsError, load_settings
from bot.storage import DatabaseInUseError, Storage, StorageError
from bot.ui import CHANNEL_PERMISSIONS, THREAD_PERMISSIONS

DISCORD_API = "https://discord.com/api/v10"
# the application's flags that say the Server Members intent is switched on
MEMBERS_INTENT_FLAGS = (1 << 14) | (1 << 15)  # GATEWAY_GUILD_MEMBERS(_LIMITED)
SCOPES = "bot+applications.commands"


@dataclass(frozen=True)
class Finding:
    """One check: fine, or what is wrong and how to fix it."""

    ok: bool
    text: str

    def line(self) -> str:
        """As printed: ``ok   …`` or ``FIX  …``."""
        return f"{'ok ' if self.ok else 'FIX'}  {self.text}"


def invite_permissions() -> int:
    """The permissions the bot needs in a table's channel, and to give each table a thread
    of its own there, as Discord's integer."""
    needed = {**CHANNEL_PERMISSIONS, **THREAD_PERMISSIONS}
    return discord.Permissions(**dict.fromkeys(needed, True)).value


def application_id(token: str) -> int | None:
    """The bot's id, from the first part of its token (None if that is not one)."""
    head = token.split(".", 1)[0]
    try:
        text = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None


def check_env_file(env_file: Path) -> list[Finding]:
    """``.env`` holds the token: nobody but its owner (and group) may read it."""
    if not env_file.exists():
        return [Finding(True, f"no {env_file}: settings come from the environment")]
    if env_file.stat().st_mode & stat.S_IROTH:
        return [Finding(False, f"{env_file} is readable by every user: chmod 600 {env_file}")]
    return [Finding(True, f"{env_file} is not readable by other users")]


def check_token(settings: Settings) -> tuple[list[Finding], int | None]:
    """The token is set and shaped like a bot token; returns the bot's id too."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        fix = "DISCORD_TOKEN is not set: Developer Portal → your app → Bot → Reset Token,"
        return [Finding(False, f"{fix} then DISCORD_TOKEN=… in .env")], None
    found = application_id(token)
    if not TOKEN.fullmatch(token) or found is None:
        return [
            Finding(
                False,
                "DISCORD_TOKEN is not a bot token (three parts joined by dots, the first the"
                " bot's id): copy it again from Bot → Reset Token, not the client secret",
            )
        ], None
    return [Finding(True, f"DISCORD_TOKEN is shaped like the token of bot {found}")], found


async def check_database(settings: Settings) -> list[Finding]:
    """The database answers and its schema is this code's latest."""
    try:
        todo = await Storage.pending_migrations(settings.database_url)
    except DatabaseInUseError:
        return [Finding(True, "the database is in use by a running bot (stop it to check more)")]
    except (StorageError, OSError) as error:
        if "there is no database" in str(error):
            return [Finding(True, f"{error}: the bot creates it at its first start")]
        return [Finding(False, f"the database: {error}")]
    if todo:
        return [
            Finding(
                False,
                f"the database lacks {len(todo)} migration(s): ./run migrate (or start the"
                " bot, which applies them)",
            )
        ]
    return [Finding(True, "the database answers and is migrated")]


async def check_online(settings: Settings, api: str = DISCORD_API) -> list[Finding]:
    """Ask Discord whether it takes the token, and has the intents the settings ask for."""
    assert settings.discord_token is not None
    headers = {"Authorization": f"Bot {settings.discord_token.get_secret_value().strip()}"}
    timeout = aiohttp.ClientTimeout(total=15)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(f"{api}/applications/@me", headers=headers) as response,
        ):
            if response.status == 401:
                return [
                    Finding(False, "Discord refuses DISCORD_TOKEN: reset it (Bot → Reset Token)")
                ]
            response.raise_for_status()
            flags = int((await response.json()).get("flags", 0))
    except (aiohttp.ClientError, TimeoutError) as error:
        return [
            Finding(False, f"could not ask Discord ({type(error).__name__}): check the network")
        ]
    found = [Finding(True, "Discord accepts DISCORD_TOKEN")]
    if settings.members_intent and not flags & MEMBERS_INTENT_FLAGS:
        found.append(
            Finding(
                False,
                "MEMBERS_INTENT=true but the Server Members intent is off: switch it on under"
                " Bot → Privileged Gateway Intents, or set MEMBERS_INTENT=false",
            )
        )
    return found


def check_settings(settings: Settings) -> list[Finding]:
    """Settings that work but do not belong in production."""
    found = []
    if settings.dev_guild_id is not None:
        found.append(
            Finding(
                False,
                "DEV_GUILD_ID is set: commands are synced there at every start; leave it empty"
                " in production and write @Cardroom sync once",
            )
        )
    if settings.metrics_port is not None and settings.metrics_host not in ("127.0.0.1", "::1"):
        found.append(
            Finding(
                False,
                f"METRICS_HOST={settings.metrics_host} shows the metrics to the network:"
                " keep 127.0.0.1 unless a firewall guards the port",
            )
        )
    return found


async def examine(env_file: Path, online: bool, api: str = DISCORD_API) -> list[Finding]:
    """Every check's findings, and the invite URL once the bot's id is known."""
    found = check_env_file(env_file)
    try:
        settings = load_settings(env_file)
    except SettingsError as error:
        return [*found, Finding(False, str(error))]
    token_findings, bot_id = check_token(settings)
    found += token_findings + await check_database(settings) + check_settings(settings)
    intent = "Server Members (MEMBERS_INTENT=true)" if settings.members_intent else "none"
    found.append(Finding(True, f"privileged intents the bot asks for: {intent}"))
    if online and bot_id is not None:
        found += await check_online(settings, api)
    if bot_id is not None:
        url = (
            f"https://discord.com/oauth2/authorize?client_id={bot_id}&scope={SCOPES}"
            f"&permissions={invite_permissions()}"
        )
        names = ", ".join([*CHANNEL_PERMISSIONS.values(), *THREAD_PERMISSIONS.values()])
        found.append(Finding(True, f"invite URL ({names}): {url}"))
    return found


def main(arguments: list[str]) -> int:
    """Print every finding; exit 1 when something needs fixing."""
    if arguments not in ([], ["--online"]):
        print("usage: ./run doctor [--online]", file=sys.stderr)
        return 2
    found = asyncio.run(examine(ENV_FILE, online=arguments == ["--online"]))
    for finding in found:
        print(finding.line())
    return 0 if all(finding.ok for finding in found) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
