"""Offline composers for the generation workflow: short, plainly offline prose built from the request.

Every text says it was written offline and is assembled from what the graph passes as `facts`
(the world description, the outline, the scene plan…), so each step of the workflow has real,
schema-valid input to work on and the same project always gives the same novel.
"""

from __future__ import annotations

import re
from typing import Any

from core.llm.offline import OfflineRequest, offline_composer, stable_choice, stable_int
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    ChapterSummary,
    Character,
    CharactersConfig,
    GeneratedScene,
    Outline,
    ScenePlan,
    ThemeConflict,
    WorldSetting,
)

SURNAMES = "林沈顾苏陆叶江秦楚温韩宋"
GIVEN = ("远", "青", "辰", "岚", "川", "微", "珩", "晚", "舟", "寒", "瑶", "野")
PLACES = ("城门", "旧书院", "山道", "渡口", "集市", "后山竹林", "议事厅", "客栈")
TAG = "【离线示例】"


def _seed(request: OfflineRequest) -> str:
    return str(request.fact("seed") or request.fact("description") or request.prompt[:80])


def _short(text: str, limit: int = 12) -> str:
    """The first clause of a description, for names and titles."""
    first = re.split(r"[，。,.;；！!？?\n]", (text or "").strip())[0].strip()
    return first[:limit] or "无名之地"


def _name(seed: str, slot: int, taken: set[str]) -> str:
    for attempt in range(40):
        name = stable_choice(SURNAMES, seed, slot, attempt) + stable_choice(GIVEN, seed, slot, attempt, "g")
        if name not in taken:
            taken.add(name)
            return name
    return f"角色{slot}"


@offline_composer(WorldSetting)
def world(request: OfflineRequest) -> WorldSetting:
    description = str(request.fact("description") or "")
    core = _short(description)
    return WorldSetting(
        world_name=f"{core}之境",
        time_period=f"{TAG}与“{core}”相应的时代",
        geography=f"{TAG}{'、'.join(PLACES[:4])}相连的一片土地",
        social_system=f"{TAG}由描述推得的社会秩序：{description[:60]}",
        power_system=f"{TAG}围绕“{core}”的力量体系",
        technology_level=f"{TAG}与时代相称",
        culture_customs=f"{TAG}当地人重诺守约",
        special_rules=None,
    )


@offline_composer(ThemeConflict)
def theme_conflict(request: OfflineRequest) -> ThemeConflict:
    world_name = (request.fact("world") or {}).get("world_name", "此地")
    direction = str(request.fact("direction") or "").strip()
    core = _short(direction) if direction else "成长与抉择"
    return ThemeConflict(
        core_theme=core,
        sub_themes=["信任", "代价"],
        main_conflict=f"{TAG}主角在{world_name}中为“{core}”与旧秩序对抗",
        sub_conflicts=[f"{TAG}师徒之间的分歧", f"{TAG}同伴的猜疑"],
        tone="沉稳",
    )


def _character(name: str, role: str, seed: str, relationships: dict[str, str]) -> Character:
    return Character(
        name=name, role=role, age=16 + stable_int(seed, name) % 40, gender=stable_choice(("男", "女"), seed, name),
        appearance=f"{TAG}{name}的样貌朴素", personality=f"{TAG}{role}的性格", background=f"{TAG}{name}的来历",
        motivation=f"{TAG}{name}想要守住自己在意的东西", abilities=None, relationships=relationships or None,
    )


@offline_composer(CharactersConfig)
def characters(request: OfflineRequest) -> CharactersConfig:
    seed = _seed(request)
    taken: set[str] = set()
    hero, rival, mentor, friend = (_name(seed, slot, taken) for slot in range(4))
    return CharactersConfig(
        protagonist=_character(hero, "主角", seed, {mentor: "师父", friend: "挚友", rival: "宿敌"}),
        antagonist=_character(rival, "反派", seed, {hero: "宿敌"}),
        supporting_characters=[
            _character(mentor, "配角", seed, {hero: "徒弟"}),
            _character(friend, "配角", seed, {hero: "挚友"}),
        ],
    )


def _cast(characters: dict[str, Any]) -> list[str]:
    people = [characters.get("protagonist") or {}, characters.get("antagonist") or {}]
    people += list(characters.get("supporting_characters") or [])
    return [p["name"] for p in people if p and p.get("name")]


def _chapter_summary(number: int, theme: dict[str, Any], cast: list[str]) -> ChapterSummary:
    hero = cast[0] if cast else "主角"
    other = cast[number % len(cast)] if len(cast) > 1 else "旁人"
    conflict = theme.get("main_conflict", "") if theme else ""
    return ChapterSummary(
        chapter_number=number,
        chapter_title=f"第{number}章 {stable_choice(('启程', '风起', '试探', '暗流', '抉择', '转折', '对峙', '归来'), number, hero)}",
        summary=f"{TAG}{hero}与{other}在第{number}章推进主线：{conflict[:40]}",
        key_events=[f"{hero}遇到{other}", f"{hero}做出第{number}个选择"],
        timeline_anchor=f"第{number}天",
        dependencies=[],
    )


@offline_composer(Outline)
def outline(request: OfflineRequest) -> Outline:
    existing = request.fact("existing") or {}
    theme = request.fact("theme") or {}
    cast = _cast(request.fact("characters") or {})
    chapters = [ChapterSummary.model_validate(c) for c in existing.get("chapters", [])]
    for number in range(len(chapters) + 1, int(request.fact("chapters", 3)) + 1):
        chapters.append(_chapter_summary(number, theme, cast))
    premise = existing.get("story_premise") or f"{TAG}{theme.get('main_conflict', '一个关于选择的故事')}"
    return Outline(
        story_premise=premise,
        beginning=existing.get("beginning") or f"{TAG}主角离开熟悉的地方",
        development=existing.get("development") or f"{TAG}同伴与对手先后出现",
        climax=existing.get("climax") or f"{TAG}主角直面{theme.get('core_theme', '抉择')}",
        resolution=existing.get("resolution") or f"{TAG}尘埃落定",
        chapters=chapters,
    )


@offline_composer(ChapterPlan)
def chapter_plan(request: OfflineRequest) -> ChapterPlan:
    summary = request.fact("summary") or {}
    number = int(summary.get("chapter_number", 1))
    cast = _cast(request.fact("characters") or {}) or ["主角"]
    # The people the outline names for this chapter meet in its scenes.
    cast = [name for name in cast if name in str(summary)] or cast
    events = list(summary.get("key_events") or ["推进剧情"])
    count = 2 + stable_int(number, summary.get("chapter_title")) % 2
    scenes = [
        ScenePlan(
            scene_number=n,
            location=stable_choice(PLACES, number, n),
            characters=[cast[0], cast[(number + n) % len(cast)]] if len(cast) > 1 else cast[:1],
            purpose=events[(n - 1) % len(events)],
            key_actions=[events[(n - 1) % len(events)]],
            estimated_words=300,
            scene_type=stable_choice(("日常", "对话", "发展"), number, n),
            intensity=stable_choice(("低", "中", "高"), number, n),
        )
        for n in range(1, count + 1)
    ]
    return ChapterPlan(chapter_number=number, chapter_title=summary.get("chapter_title", f"第{number}章"), scenes=scenes)


@offline_composer(GeneratedScene)
def scene_text(request: OfflineRequest) -> GeneratedScene:
    scene = request.fact("scene") or {}
    chapter = request.fact("chapter_number", 1)
    people = "与".join(dict.fromkeys(scene.get("characters") or ["主角"]))
    recalled = [m for m in (request.fact("memories") or []) if m][:1]
    lines = [
        f"{TAG}第{chapter}章第{scene.get('scene_number', 1)}场。{people}来到{scene.get('location', '某地')}。",
        f"这一场的目的：{scene.get('purpose', '推进剧情')}。",
        *(f"{action}。" for action in scene.get("key_actions") or []),
        *(f"他们想起了前事：{str(m)[:40]}。" for m in recalled),
        f"气氛{scene.get('intensity', '中')}，场景在{scene.get('scene_type', '发展')}中收束。",
    ]
    content = "\n".join(lines)
    return GeneratedScene(scene_number=int(scene.get("scene_number", 1)), content=content, word_count=0)


@offline_composer(ChapterMemoryEntry)
def chapter_memory(request: OfflineRequest) -> ChapterMemoryEntry:
    chapter = request.fact("chapter") or {}
    plan = request.fact("plan") or {}
    summary = request.fact("summary") or {}
    scenes = plan.get("scenes") or []
    people = list(dict.fromkeys(name for s in scenes for name in s.get("characters", [])))
    return ChapterMemoryEntry(
        chapter_number=int(chapter.get("chapter_number", 1)),
        chapter_title=chapter.get("chapter_title", ""),
        timeline_anchor=summary.get("timeline_anchor"),
        location_summary="、".join(dict.fromkeys(s.get("location", "") for s in scenes)) or None,
        key_events=[s.get("purpose", "") for s in scenes if s.get("purpose")],
        character_states={name: f"{TAG}第{chapter.get('chapter_number', 1)}章出场" for name in people},
        unresolved_threads=[f"{TAG}{summary.get('chapter_title', '本章')}留下的悬念"],
        summary=f"{TAG}" + "；".join(s.get("purpose", "") for s in scenes),
    )
