"""Prompts of the generation workflow for a real model (the offline model reads only `facts`)."""

from __future__ import annotations

import json
from typing import Any

_SYSTEM = {
    "zh": (
        "你是一位中文长篇小说作者兼编辑。严格按照给定的 JSON Schema 输出，不要输出多余文字。"
        "保持人物、世界观和前文事件的一致性。"
    ),
    # The instructions below stay in Chinese; the book's own text follows its author's language.
    "en": (
        "You are a novelist and editor writing a novel in English: every name, title and line of story text "
        "you produce is in English. Output strictly per the given JSON Schema, nothing else. "
        "Keep the characters, the world and earlier events consistent."
    ),
}


def system(language: str) -> str:
    """The system prompt for a book in `language` ("zh" or "en")."""
    return _SYSTEM.get(language, _SYSTEM["zh"])


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def world(description: str) -> str:
    return f"根据以下世界观描述，设计完整的世界设定（名称、时代、地理、社会、力量体系、科技、风俗、特殊规则）：\n{description}"


def theme_conflict(world: dict[str, Any], direction: str) -> str:
    return f"世界设定：\n{_json(world)}\n\n主题方向（可为空）：{direction}\n\n请给出核心主题、子主题、主要冲突、次要冲突与基调。"


def characters(world: dict[str, Any], theme: dict[str, Any], description: str = "") -> str:
    told = f"作者的描述：{description}\n（描述里点名的人物保留原名与身份。）\n\n" if description else ""
    return (f"{told}世界设定：\n{_json(world)}\n\n主题冲突：\n{_json(theme)}\n\n"
            "请设计主角、反派（可选）与若干配角，并写明彼此关系。")


def outline(world: dict[str, Any], theme: dict[str, Any], characters: dict[str, Any], chapters: int,
            existing: dict[str, Any] | None) -> str:
    base = f"世界设定：\n{_json(world)}\n\n主题冲突：\n{_json(theme)}\n\n角色：\n{_json(characters)}\n\n"
    if existing:
        return base + f"已有大纲：\n{_json(existing)}\n\n请在保留已有章节的前提下，把大纲扩展到 {chapters} 章。"
    return base + f"请写出 {chapters} 章的小说大纲（每章标题、摘要、关键事件、依赖的前置章节）。"


def chapter_plan(summary: dict[str, Any], characters: dict[str, Any], memory: list[dict[str, Any]],
                 geography: str = "") -> str:
    # the world's own places, so that scenes happen there rather than wherever the age had places
    where = f"世界地理：\n{geography}\n\n" if geography else ""
    return (f"本章大纲：\n{_json(summary)}\n\n角色：\n{_json(characters)}\n\n{where}前文章节记忆：\n{_json(memory)}\n\n"
            "请把本章拆成 2–4 个场景（地点、出场人物、目的、关键动作、预计字数、场景类型、强度），地点取自世界观里的地方。")


def scene_text(plan: dict[str, Any], scene: dict[str, Any], previous: list[str], memory: dict[str, Any] | None) -> str:
    return (f"章节计划：\n{_json(plan)}\n\n当前场景：\n{_json(scene)}\n\n本章已写场景的结尾：\n{_json(previous)}\n\n"
            f"相关记忆与人物状态：\n{_json(memory or {})}\n\n请写出这一场的正文（content），约 {scene.get('estimated_words', 800)} 字。")


def chapter_memory(chapter: dict[str, Any], summary: dict[str, Any] | None) -> str:
    return (f"章节正文：\n{_json(chapter)}\n\n章节大纲：\n{_json(summary or {})}\n\n"
            "请总结本章：时间锚点、地点、关键事件、人物状态变化、未解决的线索与一段摘要。")
