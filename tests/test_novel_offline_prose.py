"""What a reader sees of an offline book: its age kept in its places, its people's names whole, no cut clauses."""

from __future__ import annotations

import json

import pytest

from core.llm.offline import OfflineLLM
from core.novel.project import NovelProject
from core.retrieval.bm25 import BM25Index
from core.settings import Settings
from graphs.novel import offline  # noqa: F401  (registers the offline composers)
from schemas.novel import ChapterPlan, WorldSetting


def test_a_characters_rare_name_is_found_in_the_passages_that_name_it(tmp_path):
    # jieba cut "韩岚与仓书道了别" into 仓 / 书道: a search for 仓书 found no passage of his.
    settings = Settings(data_dir=tmp_path / "data", novel_projects_dir=tmp_path / "projects", _env_file=None)
    root = settings.projects_dir / "book"
    root.mkdir(parents=True)
    person = {"role": "主角", "gender": "男", "appearance": "-", "personality": "-", "background": "-", "motivation": "-"}
    (root / "characters.json").write_text(json.dumps({"protagonist": {"name": "仓书", **person}}, ensure_ascii=False))
    NovelProject.at("book", settings).load_characters()  # the chat and the workflow read the cast so
    passages = ["韩岚与仓书道了别。", "旧书院里满是书。", "韩岚独自上了山道。"]
    assert [position for position, _ in BM25Index(passages).search("仓书")] == [0]


@pytest.mark.parametrize("description", ["明朝嘉靖年间，锦衣卫小旗仓书奉命追查一桩漕银失窃案", "书生仓书赶考途中遇到狐妖"])
async def test_a_lead_of_a_rare_surname_named_after_their_post_leads_the_cast(description):
    # 仓 is no common surname: an invented 陆舟 led the book and 仓书 was "记挂着" as a thing beside 漕银.
    from schemas.novel import CharactersConfig

    cast = await OfflineLLM().structured(CharactersConfig, role="novel", system="", prompt="", facts={
        "language": "zh", "seed": "book", "description": description})
    assert cast.protagonist.name == "仓书", cast.protagonist
