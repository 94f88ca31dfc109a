"""`ng users add|list|remove`: API-token users for AUTH_MODE=token (tokens are printed once, stored hashed)."""

from __future__ import annotations

import argparse
import asyncio
import datetime
from typing import Any

from rich.table import Table

from app.auth import user_directory, valid_user_name
from app.store import LOCAL_OWNER
from app.cli_args import add_subcommands
from app.terminal import NgConsole
from core.i18n import set_locale, t
from core.settings import Settings

console = NgConsole(highlight=False)


def register(subparsers: Any) -> None:
    users = subparsers.add_parser("users", help=t("cli.help_users"), description=t("cli.help_users"))
    actions = add_subcommands(users, "action")
    add = actions.add_parser("add", help=t("cli.help_users_add"), description=t("cli.help_users_add"))
    add.add_argument("name", metavar=t("cli.metavar_user_name"), help=t("cli.help_user_name"))
    actions.add_parser("list", help=t("cli.help_users_list"), description=t("cli.help_users_list"))
    remove = actions.add_parser("remove", help=t("cli.help_users_remove"), description=t("cli.help_users_remove"))
    remove.add_argument("name", metavar=t("cli.metavar_user_name"), help=t("cli.help_user_name"))
    users.set_defaults(func=cmd_users)


def cmd_users(args: argparse.Namespace, settings: Settings) -> int:
    set_locale(settings.locale)
    return asyncio.run(_run(args, settings))


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    async with user_directory(settings) as users:
        if args.action == "add":
            if not valid_user_name(args.name):
                console.print(t("server.user_name_invalid", reserved=LOCAL_OWNER))
                return 2
            token = await users.add(args.name)
            if token is None:
                console.print(t("server.user_exists", name=args.name))
                return 1
            console.print(t("server.user_added", name=args.name, token=token), soft_wrap=True)
            return 0
        if args.action == "remove":
            if not await users.remove(args.name):
                console.print(t("server.user_missing", name=args.name))
                return 1
            console.print(t("server.user_removed", name=args.name))
            return 0
        listed = await users.list()
        if not listed:
            console.print(t("server.users_none"))
            return 0
        table = Table(t("server.users_heading_name"), t("server.users_heading_created"))
        for name, created in listed:
            table.add_row(name, datetime.datetime.fromtimestamp(created).strftime("%Y-%m-%d %H:%M"))
        console.print(table)
        return 0
