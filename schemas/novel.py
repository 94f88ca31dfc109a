"""Novel projects in NovelGen's on-disk format (jamesenh/novel-gen) and the scene memory chain (spec 003).

Class and JSON field names are NovelGen's, so a project folder written by NovelGen opens here and
one written here opens in NovelGen. NovelGen calls the project settings model `Settings`; here it is
`NovelSettings` (our `core.settings.Settings` is the service's), with the same JSON fields.

Every on-disk model accepts and keeps keys it does not declare (`extra="allow"`): NovelGen has
changed its files over time (e.g. `developer_name` in scene plans), and a load → save round trip
must not drop what another version wrote. `to_json_dict()` writes back exactly the keys a file had
(or, for a model built in code, the fields given to it) in the declared order.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_WHITESPACE = re.compile(r"\s+")


_HAN = re.compile(r"[\u3400-\u9fff]")


def count_words(text: str) -> int:
    """NovelGen's word count for Chinese prose: characters that are not whitespace; prose with no
    Chinese in it (a book written in English) counts its words."""
    if not _HAN.search(text):
        return len(text.split())
    return len(_WHITESPACE.sub("", text))


class NovelModel(BaseModel):
    model_config = ConfigDict(extra="allow")

    def to_json_dict(self) -> dict[str, Any]:
        """The dict written to disk: only keys that were read or given, so a round trip keeps the file's keys."""
        return self.model_dump(mode="json", exclude_unset=True)


class NovelSettings(NovelModel):
    """`settings.json` (NovelGen's `Settings`)."""

    project_name: str = Field(description="项目名称")
    author: str = Field(default="Jamesenh", description="作者")
    llm_model: str = Field(default="gpt-4", description="使用的LLM模型")
    temperature: float = Field(default=0.7, description="生成温度")
    world_description: str = Field(description="世界观描述")
    theme_description: str | None = Field(default="", description="主题描述（可选）")
    initial_chapters: int = Field(default=2, ge=1, description="初始规划章节数（开篇阶段）")
    max_chapters: int = Field(default=50, ge=1, description="最大章节数")
    num_chapters: int | None = Field(default=None, description="旧版字段：章节数（请用 initial_chapters/max_chapters）")

    @model_validator(mode="after")
    def _chapters_in_range(self) -> NovelSettings:
        if self.initial_chapters > self.max_chapters:
            raise ValueError(f"initial_chapters ({self.initial_chapters}) > max_chapters ({self.max_chapters})")
        return self


class WorldSetting(NovelModel):
    """`world.json`."""

    world_name: str = Field(description="世界名称")
    time_period: str = Field(description="时代背景")
    geography: str = Field(description="地理环境")
    social_system: str = Field(description="社会制度")
    power_system: str | None = Field(default=None, description="力量体系（如有）")
    technology_level: str = Field(description="科技水平")
    culture_customs: str = Field(description="文化习俗")
    special_rules: str | None = Field(default=None, description="特殊规则")


class ThemeConflict(NovelModel):
    """`theme_conflict.json`."""

    core_theme: str = Field(description="核心主题")
    sub_themes: list[str] = Field(description="次要主题")
    main_conflict: str = Field(description="主要冲突")
    sub_conflicts: list[str] = Field(description="次要冲突")
    tone: str = Field(description="作品基调")


class Character(NovelModel):
    name: str = Field(description="角色姓名")
    role: str = Field(description="角色定位（主角/配角/反派等）")
    age: int | None = Field(default=None, description="年龄")
    gender: str = Field(description="性别")
    appearance: str = Field(description="外貌特征")
    personality: str = Field(description="性格特点")
    background: str = Field(description="背景故事")
    motivation: str = Field(description="行动动机")
    abilities: list[str] | None = Field(default=None, description="特殊能力")
    relationships: dict[str, str] | None = Field(default=None, description="与其他角色的关系：{角色名: 关系}")


class CharactersConfig(NovelModel):
    """`characters.json`."""

    protagonist: Character = Field(description="主角")
    antagonist: Character | None = Field(default=None, description="反派")
    supporting_characters: list[Character] = Field(default_factory=list, description="配角列表")

    def all_characters(self) -> list[Character]:
        """Protagonist, antagonist (if any), then supporting characters."""
        return [self.protagonist, *([self.antagonist] if self.antagonist else []), *self.supporting_characters]

    def names(self) -> list[str]:
        return [character.name for character in self.all_characters()]

    def by_name(self, name: str) -> Character | None:
        return next((c for c in self.all_characters() if c.name == name), None)


class ChapterDependency(NovelModel):
    dependency_type: str = Field(description="依赖类型，如事件/角色状态/地点等")
    description: str = Field(description="依赖描述，说明必须满足的条件")
    chapter_number: int | None = Field(default=None, description="依赖的章节编号（如适用）")
    event_id: str | None = Field(default=None, description="依赖的事件ID或自定义标识")


class ChapterSummary(NovelModel):
    chapter_number: int = Field(ge=1, description="章节编号")
    chapter_title: str = Field(description="章节标题")
    summary: str = Field(description="章节概要")
    key_events: list[str] = Field(description="关键事件")
    timeline_anchor: str | None = Field(default=None, description="时间线锚点")
    dependencies: list[ChapterDependency] = Field(default_factory=list, description="本章开始前必须满足的依赖")


class Outline(NovelModel):
    """`outline.json`."""

    story_premise: str = Field(description="故事前提")
    beginning: str = Field(description="开端")
    development: str = Field(description="发展")
    climax: str = Field(description="高潮")
    resolution: str = Field(description="结局")
    chapters: list[ChapterSummary] = Field(description="章节列表")
    is_complete: bool = Field(default=True, description="大纲是否已包含结局章节")
    current_phase: str = Field(
        default="complete", description="当前故事阶段: opening/development/climax/resolution/complete"
    )

    def chapter(self, number: int) -> ChapterSummary | None:
        return next((c for c in self.chapters if c.chapter_number == number), None)


class ScenePlan(NovelModel):
    scene_number: int = Field(ge=1, description="场景编号")
    location: str = Field(description="场景地点")
    characters: list[str] = Field(description="出场角色")
    purpose: str = Field(description="场景目的")
    key_actions: list[str] = Field(description="关键动作")
    estimated_words: int = Field(description="预计字数")
    scene_type: str = Field(description="场景类型: 日常/对话/战斗/发展/高潮/结局")
    intensity: str = Field(description="强度等级: 低/中/高")


class ChapterPlan(NovelModel):
    """`chapters/chapter_NNN_plan.json`."""

    chapter_number: int = Field(ge=1, description="章节编号")
    chapter_title: str = Field(description="章节标题")
    scenes: list[ScenePlan] = Field(description="场景列表")


class GeneratedScene(NovelModel):
    scene_number: int = Field(ge=1, description="场景编号")
    content: str = Field(description="场景正文")
    word_count: int = Field(ge=0, description="实际字数（正文中非空白字符数；英文正文为词数）")

    @classmethod
    def from_content(cls, scene_number: int, content: str) -> GeneratedScene:
        return cls(scene_number=scene_number, content=content, word_count=count_words(content))


class GeneratedChapter(NovelModel):
    """`chapters/chapter_NNN.json`."""

    chapter_number: int = Field(ge=1, description="章节编号")
    chapter_title: str = Field(description="章节标题")
    scenes: list[GeneratedScene] = Field(description="场景文本列表")
    total_words: int = Field(ge=0, description="总字数")

    @classmethod
    def assemble(cls, chapter_number: int, chapter_title: str, scenes: list[GeneratedScene]) -> GeneratedChapter:
        ordered = sorted(scenes, key=lambda s: s.scene_number)
        return cls(
            chapter_number=chapter_number,
            chapter_title=chapter_title,
            scenes=ordered,
            total_words=sum(s.word_count for s in ordered),
        )


class ChapterMemoryEntry(NovelModel):
    """One entry of `chapter_memory.json` (a list)."""

    chapter_number: int = Field(ge=1, description="章节编号")
    chapter_title: str = Field(description="章节标题")
    timeline_anchor: str | None = Field(default=None, description="时间线锚点")
    location_summary: str | None = Field(default=None, description="本章主要地点概述")
    key_events: list[str] = Field(default_factory=list, description="推动剧情的主要事件")
    character_states: dict[str, str] = Field(default_factory=dict, description="关键角色当前状态：{角色名: 状态}")
    unresolved_threads: list[str] = Field(default_factory=list, description="未解决的悬念或任务")
    summary: str = Field(description="章节摘要（整章）")


class ConsistencyIssue(NovelModel):
    issue_type: str = Field(description="问题类型（设定冲突/角色矛盾等）")
    description: str = Field(description="问题描述")
    related_characters: list[str] = Field(default_factory=list, description="涉及角色")
    severity: str = Field(default="medium", description="严重程度: low/medium/high")
    fix_instructions: str | None = Field(default=None, description="修复建议（为空则不可自动修复）")


class ConsistencyReport(NovelModel):
    """One entry of `consistency_reports.json` (a list)."""

    chapter_number: int = Field(ge=1, description="章节编号")
    issues: list[ConsistencyIssue] = Field(default_factory=list, description="发现的问题列表")
    summary: str = Field(description="检测摘要")
    context_snapshot: str | None = Field(default=None, description="用于检测的上下文摘要")


class UserPreference(NovelModel):
    """One entry of `preferences.json` (a list)."""

    project_id: str = Field(description="项目ID")
    preference_type: str = Field(description="偏好类型：writing_style, tone, character_development, plot_preference")
    content: str = Field(description="偏好内容描述")
    source: str = Field(description="偏好来源：manual, feedback, explicit")
    timestamp: datetime = Field(default_factory=datetime.now, description="记录时间")


# --- scene memory chain (spec 003) -------------------------------------------------------------

MemoryContentType = Literal["scene", "summary", "event", "dialogue", "description"]


class EntityStateSnapshot(NovelModel):
    """An entity's state at one point of the story (stored in the project's SQLite state DB)."""

    project_id: str = Field(description="项目ID")
    entity_type: str = Field(description="实体类型：character, location, item")
    entity_id: str = Field(description="实体ID（角色名）")
    chapter_index: int | None = Field(default=None, description="章节索引")
    scene_index: int | None = Field(default=None, description="场景索引")
    timestamp: datetime = Field(description="时间戳")
    state_data: dict[str, Any] = Field(description="状态数据")
    version: int = Field(default=1, ge=1, description="版本号")


class StoryMemoryChunk(NovelModel):
    """A piece of story text the memory search can return."""

    chunk_id: str = Field(description="记忆块ID")
    project_id: str = Field(description="项目ID")
    chapter_index: int | None = Field(default=None, description="章节索引")
    scene_index: int | None = Field(default=None, description="场景索引")
    content: str = Field(description="原始文本内容")
    content_type: str = Field(description="内容类型：scene, summary, event, dialogue, description")
    entities_mentioned: list[str] = Field(default_factory=list, description="提及的实体ID（角色名）")
    tags: list[str] = Field(default_factory=list, description="内容标签")
    embedding_id: str | None = Field(default=None, description="向量存储中的ID")
    created_at: datetime = Field(description="创建时间")
    score: float | None = Field(default=None, description="本次检索的相关度（融合排序分数，越大越相关）")


class SceneMemoryContext(NovelModel):
    """The chain's output, also written to `projects/<id>/scene_<chapter>_<scene>_memory.json`."""

    project_id: str = Field(description="项目ID")
    chapter_index: int | None = Field(default=None, description="章节索引")
    scene_index: int | None = Field(default=None, description="场景索引")
    entity_states: list[EntityStateSnapshot] = Field(default_factory=list, description="实体状态列表")
    relevant_memories: list[StoryMemoryChunk] = Field(default_factory=list, description="相关记忆列表")
    timeline_context: dict[str, Any] | None = Field(default=None, description="时间线上下文")
    retrieval_timestamp: datetime = Field(description="检索时间戳")
    degraded: list[str] = Field(
        default_factory=list,
        description="未能使用的能力及原因（如向量检索不可用时改用关键词检索），为空表示完整检索",
    )

    def to_json_dict(self) -> dict[str, Any]:
        # Written whole (not only given fields): readers expect every key of the spec.
        return self.model_dump(mode="json")


class MemoryRetrievalAnalysis(NovelModel):
    """The model's analysis of a scene plan: what to search for and whose state to look up."""

    search_queries: list[str] = Field(default_factory=list, description="用于检索历史记忆的查询短语（2-5 个）")
    key_entities: list[str] = Field(default_factory=list, description="需要重点关注的实体名称（主要是出场角色）")


# --- project status (shared by the workflow's status() and the chat agent) ---------------------


class StepStatus(BaseModel):
    step: str = Field(description="步骤名：world / theme_conflict / characters / outline")
    file: str = Field(description="该步骤写入的文件（相对项目目录）")
    done: bool = Field(description="文件存在且有效")


class ChapterStatus(BaseModel):
    chapter_number: int
    chapter_title: str
    planned: bool = Field(description="chapters/chapter_NNN_plan.json 存在")
    planned_scenes: int = Field(default=0, description="章节计划中的场景数")
    generated: bool = Field(description="chapters/chapter_NNN.json 存在")
    scenes: int = Field(default=0, description="已生成的场景数")
    words: int = Field(default=0, description="已生成的字数（total_words）")


class ProjectStatus(BaseModel):
    project_id: str
    steps: list[StepStatus]
    outline_chapters: int = Field(description="大纲中的章节数（M）")
    chapter_plans: int = Field(description="已有章节计划数（N）")
    chapters_generated: int = Field(description="已生成章节数（N）")
    total_words: int = Field(description="已生成章节的总字数")
    chapters: list[ChapterStatus] = Field(description="大纲章节与磁盘上章节的并集，按章节号排序")
    chapter_memory_entries: int = Field(default=0, description="chapter_memory.json 中的条目数")
    problems: list[str] = Field(default_factory=list, description="无法读取的文件（每条一句话）")

    @property
    def steps_done(self) -> list[str]:
        return [s.step for s in self.steps if s.done]
