"""A Chinese user (the default locale) reads no English sentence: every user-facing text field of every
event of an offline PPT and requirement run, the refusals of bad requests over Socket.IO and HTTP (pydantic's
and aiohttp's and engineio's own English included), and `ng`'s help, usage errors and start banner; with
LOCALE=en the same places speak English."""

from __future__ import annotations

import argparse
import contextvars
import os
import re
import subprocess
import sys
from typing import Any

import aiohttp
import pytest

from core.i18n import set_locale, t
from tests.support.server import ROOT, ServerProcess

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# Names a Chinese sentence keeps as they are.
PROPER_NOUNS = {"ppt", "pptx", "json", "markdown", "implementation_plan", "md", "llm_provider", "offline", "openai",
                "use", "defaults", "answer", "true", "false", "repo", "csv", "api", "http"}


def english_sentences(texts: list[str]) -> list[str]:
    """Texts with no Chinese but at least three ordinary Latin words: an English sentence."""
    found = []
    for text in texts:
        words = [w for w in LATIN_WORD.findall(text) if w.lower() not in PROPER_NOUNS]
        if not CJK.search(text) and len(words) >= 3:
            found.append(text)
    return found


def user_texts(event: str, data: dict[str, Any]) -> list[str]:
    if event in {"tool:log", "status", "progress"}:
        return [data.get("message") or ""]
    if event == "message":
        return [data.get("content") or ""]
    if event == "completion":
        return [data.get("error") or ""]
    if event == "tool:artifact":
        return [data["artifact"]["title"]]
    if event == "interrupt":
        payload = data.get("payload", {})
        questions = payload.get("questions", [])
        return [payload.get("answerFormat", ""), payload.get("prompt", "")] + [
            q[field] for q in questions for field in ("question", "why_needed", "fallback_assumption")]
    return []


async def run_to_end(client, flow: str, text: str) -> str:
    ack = await client.call("chat:message", {"flow": flow, "text": text})
    assert ack["ok"], ack
    thread_id, run_id = ack["threadId"], ack["runId"]
    while True:
        ended = await client.wait_for("status", lambda d: d["threadId"] == thread_id and d.get("runId") == run_id
                                      and d["status"] != "running", timeout=60)
        if ended["status"] != "interrupted":
            await client.wait_for("completion", lambda d: d["threadId"] == thread_id and d.get("runId") == run_id)
            return thread_id
        resumed = await client.call("run:resume", {"threadId": thread_id, "answer": "use defaults"})
        assert resumed["ok"], resumed
        run_id = resumed["runId"]


@pytest.mark.parametrize(("flow", "text"), [
    ("requirement", "给课程管理系统增加作业批改功能"),
    ("ppt", "做一个关于火山的5分钟科普PPT"),
])
async def test_a_chinese_user_reads_no_english_sentence_in_a_run(start_server, connect, flow, text):
    server = await start_server()
    client = await connect(server.url)
    thread_id = await run_to_end(client, flow, text)
    texts = [line for event, data in client.of(thread_id) for line in user_texts(event, data)]
    assert texts and english_sentences(texts) == []


async def test_a_chinese_user_reads_no_english_refusal(start_server, connect):
    server = await start_server()
    client = await connect(server.url)
    refusals = [
        await client.call("chat:message", {"flow": "no-such-flow", "text": "你好"}),
        await client.call("run:resume", {"threadId": "t-missing"}),
        await client.call("run:cancel", {"threadId": "t-missing"}),
    ]
    messages = [ack["error"]["message"] for ack in refusals]
    assert all(not ack["ok"] for ack in refusals)
    assert english_sentences(messages) == []


# --------------------------------------------------------------- refusals at the edge and the CLI

QUOTED_NAME = re.compile(r"「[^」]*」|'[^']*'")


def english_words(text: str, names: set[str] = frozenset()) -> list[str]:
    """Latin words of a Chinese sentence that are neither a quoted field name, a proper noun nor in `names`."""
    return [w for w in LATIN_WORD.findall(QUOTED_NAME.sub("", text))
            if w.lower() not in PROPER_NOUNS and w.lower() not in names]


def invalid_payloads(model) -> list[Any]:
    """Payloads the event's model refuses: not an object, an unknown key, each field empty, of the wrong type
    or out of range. Derived from the model, so a new field is covered too."""
    from pydantic import ValidationError

    fields = list(model.model_fields)
    candidates: list[Any] = ["not an object", [1], {"threadID": "t-1"}, {}]
    candidates += [{name: value for name in fields} for value in ("", 12345, -1, None, [], 2**70)]

    def refused(payload: Any) -> bool:
        try:
            model.model_validate(payload)
        except ValidationError:
            return True
        return False

    return [payload for payload in candidates if refused(payload)]


def client_events() -> list[str]:
    from schemas.events import CLIENT_EVENT_MODELS

    return sorted(CLIENT_EVENT_MODELS)


async def bad_acks(client, event: str) -> list[dict[str, Any]]:
    from schemas.events import CLIENT_EVENT_MODELS

    payloads = invalid_payloads(CLIENT_EVENT_MODELS[event])
    assert payloads, event
    return [await client.call(event, payload) for payload in payloads]


@pytest.mark.parametrize("event", client_events())
async def test_a_chinese_user_reads_each_invalid_payload_refused_in_chinese(start_server, connect, event):
    server = await start_server()
    client = await connect(server.url)
    acks = await bad_acks(client, event)
    assert all(not ack["ok"] and ack["error"]["code"] == "bad_request" for ack in acks), acks
    messages = [ack["error"]["message"] for ack in acks]
    assert all(CJK.search(message) for message in messages), messages
    assert [word for message in messages for word in english_words(message)] == [], messages


@pytest.mark.parametrize("event", client_events())
async def test_an_english_user_reads_each_invalid_payload_refused_in_english(start_server, connect, event):
    server = await start_server(locale="en")
    client = await connect(server.url)
    messages = [ack["error"]["message"] for ack in await bad_acks(client, event)]
    opening = t("server.invalid_request", locale="en", details="\0").split("\0")[0]
    assert all(message.startswith(opening) and not CJK.search(message) for message in messages), messages


async def http_answer(url: str, method: str = "GET", **options) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.request(method, url, **options) as response:
        return response.status, await response.json(content_type=None)


def http_refusals(url: str) -> list[tuple[int, str, str, dict[str, Any]]]:
    """Requests aiohttp itself would refuse in English: no such address, wrong method, a body over the limit."""
    return [
        (404, "GET", url + "/api/no-such-route", {}),
        (405, "POST", url + "/api/flows", {}),
        (413, "POST", url + "/api/session", {"data": b"x" * (2 * 1024 * 1024)}),
        (400, "GET", url + "/api/threads/t-1/events?afterSeq=-5", {}),
    ]


async def test_a_chinese_user_reads_http_errors_in_chinese(start_server):
    server = await start_server()
    for status, method, url, options in http_refusals(server.url):
        answer = await http_answer(url, method, **options)
        message = answer[1]["error"]["message"]
        assert answer[0] == status and CJK.search(message) and english_words(message) == [], (url, answer)


async def test_an_english_user_reads_http_errors_in_english(start_server):
    server = await start_server(locale="en")
    for status, method, url, options in http_refusals(server.url):
        answer = await http_answer(url, method, **options)
        assert answer[0] == status and not CJK.search(answer[1]["error"]["message"]), (url, answer)


async def test_a_socket_from_a_foreign_origin_is_refused_in_chinese(start_server):
    server = await start_server()
    status, body = await http_answer(server.url + "/socket.io/?EIO=4&transport=polling",
                                     headers={"Origin": "http://evil.example"})
    assert status == 403 and body["error"] == {
        "code": "unauthorized", "message": t("server.origin_refused", locale="zh", origin="http://evil.example")}


async def test_a_websocket_from_a_foreign_origin_is_refused_before_the_handshake(start_server):
    server = await start_server()
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(server.url + "/socket.io/?EIO=4&transport=websocket",
                                     headers={"Origin": "http://evil.example"})
    assert refused.value.status == 403


# ng's help, usage errors and start banner

def ng(*args: str, locale: str, data_dir) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATA_DIR": str(data_dir), "LLM_PROVIDER": "offline", "LOCALE": locale, "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def every_parser(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:  # noqa: SLF001 (argparse offers no public walk of its subcommands)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for sub in action.choices.values():
                found += every_parser(sub)
    return found


def cli_names() -> set[str]:
    """What the user types (commands, flags, metavars): names, not sentences."""
    from app.cli import build_parser

    names = set()
    for parser in every_parser(build_parser()):
        names.update(parser.prog.split())
        for action in parser._actions:  # noqa: SLF001
            for token in [*action.option_strings, action.dest, action.metavar or "", *(action.choices or ())]:
                names.update(w.lower() for w in LATIN_WORD.findall(str(token)))
    return names


def english_lines(text: str) -> list[str]:
    names = cli_names()
    return [line for line in text.splitlines()
            if not CJK.search(line) and len(english_words(line, names)) >= 3]


def in_locale(locale: str, call):
    """`call()` under `locale` without changing the locale of the tests that run after it."""
    def run():
        set_locale(locale)
        return call()
    return contextvars.copy_context().run(run)


def all_help(locale: str) -> dict[str, str]:
    from app.cli import build_parser

    return in_locale(locale, lambda: {p.prog: p.format_help() for p in every_parser(build_parser())})


def test_every_help_of_ng_is_chinese_by_default():
    helps = all_help("zh")
    assert len(helps) > 10 and {prog: english_lines(text) for prog, text in helps.items() if english_lines(text)} == {}
    assert all(CJK.search(text.splitlines()[0]) for text in helps.values())  # the usage line


def test_every_help_of_ng_is_english_with_locale_en():
    helps = all_help("en")
    assert all(text.startswith("usage: ") and not CJK.search(text) for text in helps.values())


def test_ng_help_and_ng_ppt_help_are_chinese_by_default(tmp_path):
    for args in (["--help"], ["ppt", "--help"]):
        result = ng(*args, locale="zh", data_dir=tmp_path)
        assert result.returncode == 0 and result.stdout.startswith(t("argparse.usage", locale="zh") + "ng")
        assert english_lines(result.stdout) == [], result.stdout


def test_ng_help_is_english_with_locale_en(tmp_path):
    result = ng("--help", locale="en", data_dir=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("usage: ng") and not CJK.search(result.stdout)


def test_a_usage_error_is_chinese_by_default(tmp_path):
    result = ng("ppt", locale="zh", data_dir=tmp_path)
    error_line = result.stderr.strip().splitlines()[-1]
    assert result.returncode == 2 and error_line.startswith("ng ppt：") and "主题" in error_line  # the argument by its Chinese name
    assert CJK.search(error_line) and english_words(error_line, cli_names()) == [], result.stderr


def test_a_usage_error_is_english_with_locale_en(tmp_path):
    result = ng("ppt", locale="en", data_dir=tmp_path)
    assert result.returncode == 2 and "ng ppt: error:" in result.stderr and not CJK.search(result.stderr)


def serve_banner(data_dir, locale: str) -> tuple[str, ServerProcess]:
    """The first line `ng serve` prints, read once the server answers; the server is stopped by its PID."""
    server = ServerProcess(data_dir, env={"LOCALE": locale, "PYTHONUNBUFFERED": "1"}).start()
    try:
        return server.log_path.read_text(encoding="utf-8").splitlines()[0], server
    finally:
        server.stop()


def test_the_serve_banner_is_chinese_by_default(tmp_path):
    banner, server = serve_banner(tmp_path / "data", "zh")
    assert server.url.removeprefix("http://") in banner and CJK.search(banner)
    names = {"agent", "canvas", "offline", "deterministic"}  # the product's and the offline model's names
    assert english_words(banner.replace(str(server.data_dir), ""), names) == [], banner


def test_the_serve_banner_is_english_with_locale_en(tmp_path):
    banner, server = serve_banner(tmp_path / "data", "en")
    assert server.url.removeprefix("http://") in banner and not CJK.search(banner)
