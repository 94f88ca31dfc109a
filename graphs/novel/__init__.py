from graphs.novel.chat import FLOW  # noqa: F401  the `novel` chat flow
