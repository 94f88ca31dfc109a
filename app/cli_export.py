"""`ng export`: write any artifact of any thread to a file; and the deck path `ng ppt --out` asked for,
remembered so that `ng resume` saves the deck where the first command was told to."""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import mimetypes
import os
import shutil
from pathlib import Path
from typing import Any

from core.i18n import join_items, t
from core.settings import Settings

# Beside the store: one small JSON map thread id → the --out path given to `ng ppt`.
REMEMBERED_OUT = "cli-outputs.json"


def remember_out(settings: Settings, thread_id: str, out: Path) -> None:
    path = Path(settings.data_dir) / REMEMBERED_OUT
    known = json.loads(path.read_text()) if path.exists() else {}
    known[thread_id] = str(out.resolve())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, ensure_ascii=False, indent=1))


def remembered_out(settings: Settings, thread_id: str) -> Path | None:
    path = Path(settings.data_dir) / REMEMBERED_OUT
    known = json.loads(path.read_text()) if path.exists() else {}
    return Path(known[thread_id]) if thread_id in known else None


# Why a file could not be written, in the user's words (the OS's own text is English).
WRITE_ERRORS = {errno.EACCES: "cli.out_no_permission", errno.EPERM: "cli.out_no_permission",
                errno.EROFS: "cli.out_read_only", errno.ENOSPC: "cli.out_disk_full",
                errno.EISDIR: "cli.out_is_folder", errno.ENOTDIR: "cli.out_parent_not_folder"}


class OutPathError(Exception):
    """The file the user named cannot be written; `sentence` says why."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


def out_path_problem(out: Path) -> str | None:
    """Why `out` cannot be written, said before any work is done; None when it looks writable."""
    if out.is_dir():
        return t("cli.out_unwritable", path=out, reason=t("cli.out_is_folder"))
    ancestor = out.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return t("cli.out_unwritable", path=out, reason=t("cli.out_parent_not_folder"))
    if not os.access(ancestor, os.W_OK | os.X_OK):
        return t("cli.out_unwritable", path=out, reason=t("cli.out_no_permission"))
    return None


def _extension(artifact: dict[str, Any]) -> str:
    if artifact.get("_filePath"):
        suffix = Path(artifact.get("_fileName") or "").suffix
        return suffix or mimetypes.guess_extension(artifact.get("mimeType") or "") or ".bin"
    content = artifact.get("content")
    return ".md" if isinstance(content, dict) and isinstance(content.get("markdown"), str) else ".json"


def write_artifact(artifact: dict[str, Any], out: Path) -> Path:
    """Binary from the artifact's file, Markdown when the content is a document, JSON otherwise.
    Raises OutPathError with a sentence when the file cannot be written."""
    # A folder given as --out is refused, not turned into a file beside it ("out" → "out.pptx").
    if problem := out_path_problem(out):
        raise OutPathError(problem)
    extension = _extension(artifact)
    if out.suffix.lower() != extension.lower():
        out = out.with_name(out.name + extension) if not out.suffix else out.with_suffix(extension)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if artifact.get("_filePath"):
            shutil.copyfile(artifact["_filePath"], out)
        elif extension == ".md":
            out.write_text(artifact["content"]["markdown"], encoding="utf-8")
        else:
            out.write_text(json.dumps(artifact["content"], ensure_ascii=False, indent=2), encoding="utf-8")
    except OSError as error:
        reason = t(WRITE_ERRORS.get(error.errno or 0, "cli.out_cannot_write"))
        raise OutPathError(t("cli.out_unwritable", path=out, reason=reason)) from error
    return out


def _pick(artifacts: list[dict[str, Any]], wanted: str | None, final_id: str | None) -> dict[str, Any] | None:
    if wanted:
        return next((a for a in artifacts if wanted in (a["id"], a["type"], a["title"])), None)
    final = next((a for a in artifacts if a["id"] == final_id), None)
    return final or (artifacts[-1] if artifacts else None)


def _no_such_version(thread_id: str, artifact: str, version: int, latest: int) -> str:
    if latest > 1:
        return t("cli.no_version", thread=thread_id, artifact=artifact, version=version, latest=latest)
    return t("cli.no_version_only_one", thread=thread_id, artifact=artifact, version=version)


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from app.cli import console
    from app.store import Store

    async def export() -> tuple[int, str]:
        store = await Store(settings.store_path, settings.files_dir).open()
        try:
            thread = await store.get_thread(args.thread_id)
            if thread is None:
                return 2, t("runtime.no_thread", thread=args.thread_id)  # as every `ng` command: 2, no such thread
            latest = await store.latest_artifacts(args.thread_id)
            # The run's result (the deck, not the PDF preview rendered after it), else the newest file.
            final_id = thread.get("final_artifact_id") or \
                next((a["id"] for a in reversed(latest) if a.get("_filePath")), None)
            if not latest:
                return 1, t("cli.no_artifacts_yet", thread=args.thread_id)
            chosen = _pick(latest, args.artifact, final_id)
            # A name or version the thread lacks is a wrong option (2, as `ng --help` says), in one sentence
            # naming what there is, so the next try can pick one.
            if chosen is None:
                types = join_items(list(dict.fromkeys(a["type"] for a in latest)))
                return 2, t("cli.no_artifact", thread=args.thread_id, artifact=args.artifact, artifacts=types)
            if args.version is not None:
                latest_version = chosen["version"]
                wanted = await store.get_artifact(chosen["id"], args.version)
                if wanted is None:
                    return 2, _no_such_version(args.thread_id, chosen["type"], args.version, latest_version)
                chosen = wanted
            try:
                written = write_artifact(chosen, Path(args.out))
            except OutPathError as error:
                return 1, error.sentence
            return 0, t("cli.exported", title=chosen["title"], version=chosen["version"], path=written)
        finally:
            await store.close()

    code, sentence = asyncio.run(export())
    console.print(sentence, style="green" if code == 0 else "red", highlight=False)
    return code


def register(subparsers: Any) -> None:
    export = subparsers.add_parser("export", help=t("cli.help_export"), description=t("cli.help_export"))
    export.add_argument("thread_id", metavar=t("cli.metavar_thread_id"), help=t("cli.help_thread_id"))
    export.add_argument("--version", type=int, metavar="N", help=t("cli.help_export_version"))
    export.add_argument("--artifact", metavar=t("cli.metavar_artifact"), help=t("cli.help_export_artifact"))
    export.add_argument("--out", required=True, metavar=t("cli.metavar_path"), help=t("cli.help_export_out"))
    export.set_defaults(func=cmd_export)
