"""Tools graphs may call. `readonly_repo`: the requirement flow's read-only repository tools."""

from core.tools.readonly_repo import (
    PLAN_FILE_NAME,
    ReadOnlyRepo,
    ToolRefused,
    execute_shell_command,
    retrieve_knowledge,
    view_text_file,
    write_text_file,
)

__all__ = [
    "PLAN_FILE_NAME",
    "ReadOnlyRepo",
    "ToolRefused",
    "execute_shell_command",
    "retrieve_knowledge",
    "view_text_file",
    "write_text_file",
]
