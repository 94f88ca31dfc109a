"""What the story memory holds, derived from a project's files (pure functions, no I/O).

Sources and what each yields:
- a generated chapter (+ its plan when present): `scene` chunks — passages of at most
  `PASSAGE_CHARS` characters cut at paragraph and sentence ends, so an embedding sees all of one —
  tagged with the plan's scene type and location; and per scene, one `character` snapshot for each
  character the scene mentions (where they were, with whom, what they did);
- a chapter memory entry: one `summary` chunk, one `event` chunk per key event, one
  `character_state` chunk and one snapshot per entry of `character_states` (state at chapter end).

Entities mentioned are the known character names found in the text.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from core.language import language_of, whole_clauses
from schemas.novel import (
    ChapterMemoryEntry,
    ChapterPlan,
    EntityStateSnapshot,
    GeneratedChapter,
    StoryMemoryChunk,
)

PASSAGE_CHARS = 300
# A sentence ends at 。！？… and keeps the closing quotes that follow (“……。”): cut before them, a
# quoted line would lose its ” and the next sentence would start with one.
_SENTENCE = re.compile(r"[^。！？!?…]*[。！？!?…]+[”’」』\"')）]*|[^。！？!?…]+")


def sentences(text: str) -> list[str]:
    """The sentences of `text`, line by line, stripped; closing quotes stay with their sentence."""
    return [m.group().strip() for line in text.splitlines() for m in _SENTENCE.finditer(line) if m.group().strip()]


@dataclass
class SourceItems:
    """Everything one source (a chapter text or a chapter memory entry) contributes."""

    source: str
    signature: str
    chunks: list[StoryMemoryChunk] = field(default_factory=list)
    snapshots: list[EntityStateSnapshot] = field(default_factory=list)


def signature_of(*parts: object) -> str:
    text = json.dumps([p for p in parts], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def mentioned(text: str, names: Iterable[str]) -> list[str]:
    """Known names that occur in `text`, in the order given (longest match wins over a prefix name)."""
    found = []
    for name in sorted(set(names), key=len, reverse=True):
        if name and name in text and not any(name in longer for longer in found):
            found.append(name)
    order = list(dict.fromkeys(names))
    return sorted(found, key=order.index)


def passages(text: str, limit: int = PASSAGE_CHARS) -> list[str]:
    """Paragraphs joined or cut (at sentence ends) into pieces of at most about `limit` characters."""
    pieces: list[str] = []
    for paragraph in (p.strip() for p in text.splitlines()):
        if not paragraph:
            continue
        current = ""
        for sentence in _SENTENCE.findall(paragraph):
            if current and len(current) + len(sentence) > limit:
                pieces.append(current)
                current = ""
            current += sentence
        if current:
            pieces.append(current)
    merged: list[str] = []
    for piece in pieces:
        if merged and len(merged[-1]) + len(piece) + 1 <= limit:
            merged[-1] = f"{merged[-1]}\n{piece}"
        else:
            merged.append(piece)
    return merged


def chapter_items(
    project_id: str, chapter: GeneratedChapter, plan: ChapterPlan | None, names: list[str], now: datetime | None = None
) -> SourceItems:
    now = now or datetime.now(timezone.utc)
    items = SourceItems(
        source=f"chapter:{chapter.chapter_number}",
        signature=signature_of(chapter.to_json_dict(), plan.to_json_dict() if plan else None, names),
    )
    plans = {s.scene_number: s for s in plan.scenes} if plan else {}
    number = chapter.chapter_number
    for scene in chapter.scenes:
        scene_plan = plans.get(scene.scene_number)
        tags = [t for t in (scene_plan.scene_type, scene_plan.location) if t] if scene_plan else []
        for i, passage in enumerate(passages(scene.content)):
            items.chunks.append(
                StoryMemoryChunk(
                    chunk_id=f"{project_id}/c{number:03d}/s{scene.scene_number:03d}/{i}",
                    project_id=project_id,
                    chapter_index=number,
                    scene_index=scene.scene_number,
                    content=passage,
                    content_type="scene",
                    entities_mentioned=mentioned(passage, names),
                    tags=tags,
                    created_at=now,
                )
            )
        named = mentioned(scene.content, [*names, *(scene_plan.characters if scene_plan else [])])
        # With a plan, its cast is who was there; a character only talked about gets no location.
        present = [n for n in named if n in scene_plan.characters] if scene_plan else named
        for name in named:
            state: dict[str, object] = {"chapter_title": chapter.chapter_title, "excerpt": _first_sentence_with(scene.content, name)}
            if name in present:
                if scene_plan:
                    state["location"] = scene_plan.location
                    state["actions"] = [a for a in scene_plan.key_actions if name in a]
                state["present_with"] = [other for other in present if other != name]
            else:
                state["mentioned_only"] = True
            items.snapshots.append(_character_snapshot(project_id, name, number, scene.scene_number, now, state))
    return items


def chapter_memory_items(project_id: str, entry: ChapterMemoryEntry, names: list[str], now: datetime | None = None) -> SourceItems:
    now = now or datetime.now(timezone.utc)
    number = entry.chapter_number
    known = [*names, *entry.character_states]
    items = SourceItems(source=f"memory:{number}", signature=signature_of(entry.to_json_dict(), names))
    tags = [t for t in (entry.timeline_anchor, entry.location_summary) if t]

    def add(suffix: str, content: str, content_type: str, about: str) -> None:
        items.chunks.append(
            StoryMemoryChunk(
                chunk_id=f"{project_id}/c{number:03d}/{suffix}",
                project_id=project_id,
                chapter_index=number,
                content=content,
                content_type=content_type,
                entities_mentioned=mentioned(about, known),
                tags=tags,
                created_at=now,
            )
        )

    # Quoted back to the reader (a recall in a scene, an answer's evidence): in the book's own language.
    english = language_of(entry.chapter_title + entry.summary) == "en"
    heading = f"Chapter {number}, “{entry.chapter_title}”: " if english else f"第{number}章「{entry.chapter_title}」："
    colon = ": " if english else "："
    add("summary", heading + entry.summary, "summary", entry.summary + "".join(entry.key_events))
    for i, event in enumerate(entry.key_events):
        add(f"event/{i}", event, "event", event)
    for i, (name, state) in enumerate(entry.character_states.items()):
        add(f"state/{i}", f"{name}{colon}{state}", "character_state", f"{name}{colon}{state}")
        snapshot = {"state": state, "chapter_title": entry.chapter_title}
        if entry.timeline_anchor:
            snapshot["timeline_anchor"] = entry.timeline_anchor
        if entry.location_summary:
            snapshot["location"] = entry.location_summary
        # scene_index None: the state at the end of the chapter
        items.snapshots.append(_character_snapshot(project_id, name, number, None, now, snapshot))
    return items


def _character_snapshot(
    project_id: str, name: str, chapter: int, scene: int | None, now: datetime, state: dict
) -> EntityStateSnapshot:
    return EntityStateSnapshot(
        project_id=project_id,
        entity_type="character",
        entity_id=name,
        chapter_index=chapter,
        scene_index=scene,
        timestamp=now,
        state_data=state,
    )


def _first_sentence_with(text: str, name: str) -> str:
    for sentence in sentences(text.replace("\n", "")):
        if name in sentence:
            return whole_clauses(sentence, 120)
    return ""
