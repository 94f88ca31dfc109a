"""Tools graphs may call.

Read-only repository tools (the requirement flow): `readonly_repo.ReadOnlyRepo` binds them to one
repository; `repo_paths` keeps paths inside it, `shell_policy` is the command allow-list,
`capped_process` runs a checked command, `repo_docs` searches the docs with the shared BM25.
`web_search`: SearXNG search and the tools built from settings.
"""

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
