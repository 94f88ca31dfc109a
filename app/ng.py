"""The `ng` command's entry point, light on purpose: `app.cli` and what it imports take a second or two to
load, and a Ctrl-C meanwhile must end `ng` as quietly as one during a run (a sentence, exit 130), not
with Python's KeyboardInterrupt traceback."""

from __future__ import annotations

import os
import sys

INTERRUPTED = 130  # the shell's code for a command ended by SIGINT


def main(argv: list[str] | None = None) -> int:
    try:
        from app.cli import main as run_ng

        return run_ng(argv)
    except KeyboardInterrupt:  # before (or after) app.cli's own handler: loading, parsing, exiting
        if "--debug" in (sys.argv[1:] if argv is None else argv):
            raise
        _say_stopped()
        return INTERRUPTED


def _say_stopped() -> None:
    try:
        from core.i18n import set_locale, t

        set_locale(os.environ.get("LOCALE", ""))  # Settings may not be read yet
        print(t("cli.stopped"))
    except BaseException:  # a second Ctrl-C, or the catalogue itself was being loaded: exit without words
        pass


if __name__ == "__main__":
    sys.exit(main())
