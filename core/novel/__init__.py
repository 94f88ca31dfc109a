"""Novel projects in NovelGen's format, and the story memory the scene memory chain (spec 003) reads.

API (stable: names are only ever added):

Models — `schemas/novel.py`: NovelSettings (NovelGen's `Settings`, file settings.json), WorldSetting,
ThemeConflict, Character, CharactersConfig, ChapterDependency, ChapterSummary, Outline, ScenePlan,
ChapterPlan, GeneratedScene (`.from_content(n, text)` counts words), GeneratedChapter
(`.assemble(n, title, scenes)` sums total_words), ChapterMemoryEntry, ConsistencyIssue,
ConsistencyReport, UserPreference, EntityStateSnapshot, StoryMemoryChunk, SceneMemoryContext,
MemoryRetrievalAnalysis, ProjectStatus/StepStatus/ChapterStatus; `count_words(text)`;
every on-disk model has `.to_json_dict()`.

Projects — `core.novel.project`:
- `NovelProject.at(id)`, `.open(id)` (ProjectError if absent), `.create(id, NovelSettings)`;
  `load_settings/world/theme_conflict/characters/outline()` → model | None;
  `load_chapter_plan(n)`, `load_chapter(n)` → model | None; `chapter_numbers()`,
  `chapter_plan_numbers()`, `iter_chapters()`; `load_chapter_memory/consistency_reports/
  preferences()` → list; `save_*` for each (atomic: temp file + os.replace);
  `upsert_chapter_memory(entry)`, `add_consistency_report(r)`, `add_preference(p)`,
  `delete_chapters_after(n)` (rollback), `validate_all()` → [ProjectError];
  paths: `root`, `chapters_dir`, `chapter_path(n)`, `chapter_plan_path(n)`, `scene_memory_path(c, s)`.
- `list_projects(settings=None)` → ids; `project_status(project)` → ProjectStatus (never raises;
  malformed files land in `.problems` as sentences); `check_project_id(id)`; `write_atomic(path, text)`.
- `ProjectError(user_message, file=, field=)`: `user_message` is a catalogue sentence naming file/field.

Memory — `core.novel.memory`:
- `index_project(project_id, settings=None)` → IndexReport (re-indexes changed chapters only);
  `ensure_index(project_id)` (builds on first use); `index_chapter(project_id, chapter, ...)` for the
  workflow after each chapter; `memory_store(project_id)` → MemoryStore.
- tools: `search_story_memory_tool(project_id, query, entities=None, content_type=None, tags=None,
  top_k=10)`, `get_entity_state_tool(project_id, entity_id, chapter_index=None, scene_index=None)`,
  `get_recent_timeline_tool(project_id, chapter_index, context_window)`.
- chain: `await retrieve_scene_memory_context(scene_plan, characters, project_id, chapter_index,
  scene_index, *, novel_settings=None, chapter_plan=None, ...)` → SceneMemoryContext (also written
  to `projects/<id>/scene_<chapter>_<scene>_memory.json`); never raises for retrieval failures.
- `close_memory()`: closes the process's Qdrant clients (call on shutdown).
"""
