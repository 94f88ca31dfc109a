"""Two `ng serve` workers sharing PostgreSQL (store + checkpoints) and Redis (Socket.IO fan-out)."""

from __future__ import annotations

from collections import Counter

from tests.support.client import RecordingClient
from tests.support.pg import NEEDS_POSTGRES, NEEDS_REDIS, NEEDS_SCALE_EXTRA
from tests.support.server import ServerProcess

pytestmark = [NEEDS_POSTGRES, NEEDS_REDIS, NEEDS_SCALE_EXTRA]

KILL_AT_PAGE = 4
LEASE_S = 2


async def _worker_env(postgres, redis_server) -> dict[str, str]:
    # A slow offline model so a kill or cancel lands mid-run; a short lease so the take-over comes quickly.
    return {
        "STORE": "postgres", "CHECKPOINTER": "postgres", "POSTGRES_URL": await postgres.new_database(),
        "SOCKETIO_REDIS_URL": redis_server.url, "RUN_LEASE_S": str(LEASE_S),
        "OFFLINE_LATENCY_S": "0.15", "LLM_CONCURRENCY": "1", "OFFICE_PREVIEW": "false",
    }


async def test_a_run_joined_on_another_worker_streams_live_and_survives_its_worker_being_killed(
    tmp_path, postgres, redis_server
):
    env = await _worker_env(postgres, redis_server)
    # Artifact files live on DATA_DIR, which workers share (a volume in docker-compose.yml).
    first = ServerProcess(tmp_path / "data", env={**env, "WORKER_ID": "w1"}).start()
    second = ServerProcess(tmp_path / "data", env={**env, "WORKER_ID": "w2"}).start()
    starter, watcher = RecordingClient(), RecordingClient()
    try:
        await starter.connect(first.url)
        await watcher.connect(second.url)
        ack = await starter.call("chat:message", {"flow": "ppt", "text": "做一个关于电路基础的8分钟PPT"})
        thread_id = ack["threadId"]
        await starter.wait_for("progress", lambda d: d["current"] == 2, timeout=30)
        joined = await watcher.call("thread:join", {"threadId": thread_id})
        assert joined["ok"], joined
        # Live from worker 1 through Redis: the watcher sees a page worker 1 starts after the join.
        await watcher.wait_for("progress", lambda d: d["current"] == KILL_AT_PAGE, timeout=30)
        first.kill()
        completion = await watcher.wait_for("completion", timeout=60)
        stored = await watcher.call("thread:join", {"threadId": thread_id, "afterSeq": 0})
    finally:
        await starter.close()
        await watcher.close()
        first.kill()
        second.stop()

    assert completion["success"] is True, completion
    assert stored["thread"]["status"] == "done"
    received = {d["seq"]: (n, d) for n, d in watcher.of(thread_id)}
    last_seq = stored["thread"]["lastSeq"]
    assert sorted(received) == list(range(1, last_seq + 1)), "every stored event reached the watcher, no gap"
    log = [received[seq] for seq in sorted(received)]
    starts = Counter(d["toolName"] for n, d in log if n == "tool:start")
    assert set(starts.values()) == {1}, f"no stage started twice across the take-over: {starts}"
    pages = Counter(d["current"] for n, d in log if n == "progress")
    assert set(pages.values()) == {1}, f"no page reported twice: {pages}"
    versions = Counter()
    for n, d in log:
        if n == "tool:artifact":
            versions[d["artifact"]["id"]] = max(versions[d["artifact"]["id"]], d["artifact"]["version"])
    assert set(versions.values()) == {1}, "no artifact got a second version from the take-over"


async def test_cancel_sent_to_another_worker_stops_the_run(tmp_path, postgres, redis_server):
    env = await _worker_env(postgres, redis_server)
    first = ServerProcess(tmp_path / "data", env={**env, "WORKER_ID": "w1"}).start()
    second = ServerProcess(tmp_path / "data", env={**env, "WORKER_ID": "w2"}).start()
    starter, canceller = RecordingClient(), RecordingClient()
    try:
        await starter.connect(first.url)
        await canceller.connect(second.url)
        # A long deck: the stop must land before its last step even when the machine is busy and events lag.
        ack = await starter.call("chat:message", {"flow": "ppt", "text": "做一个关于电路基础的20分钟PPT"})
        await starter.wait_for("progress", lambda d: d["current"] == 2, timeout=30)
        cancelled = await canceller.call("run:cancel", {"threadId": ack["threadId"]})
        completion = await starter.wait_for("completion", timeout=30)
    finally:
        await starter.close()
        await canceller.close()
        first.stop()
        second.stop()
    assert cancelled["ok"], cancelled
    assert completion["success"] is False
    statuses = [d["status"] for _n, d in starter.of(ack["threadId"], "status")]
    assert statuses[-1] == "cancelled"
