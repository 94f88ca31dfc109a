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

Memory — `core.novel.memory` (DATA_DIR/novel_memory/<id>/memory.sqlite + Qdrant, see store.py):
- `index_project(project_id, settings=None)` → IndexReport{chapters, chunks, states, sources_updated,
  vectors, degraded, problems; .sentence()} — re-derives only changed chapters / memory entries;
  ProjectError if the project is absent or its memory DB is broken. `ensure_index(id)` (searches
  call it: first use builds the index; edited files are re-indexed). The workflow calls
  `index_project` after writing a chapter and its chapter_memory entry.
- `memory_store(id, settings=None)` → MemoryStore: `.search(query, entities=, content_type=, tags=,
  top_k=10, mode="fused"|"vector"|"keyword")` → SearchResult{chunks (with .score), degraded
  [sentences]}; `.entity_state(entity, chapter, scene, before=False)`; `.timeline(chapter, window)`.
- tools (spec signatures; settings from `configure_memory(settings)` else the environment; never
  raise for a store that is down): `search_story_memory_tool(project_id, query, entities=None,
  content_type=None, tags=None, top_k=10) -> list[StoryMemoryChunk]`, `get_entity_state_tool(project_id,
  entity_id, chapter_index=None, scene_index=None) -> EntityStateSnapshot | None` (latest at or before
  that point), `get_recent_timeline_tool(project_id, chapter_index, context_window) -> list[...]`.
  content_type values: scene, summary, event, character_state. entities/tags filters match any.
- chain: `await retrieve_scene_memory_context(scene_plan, characters, project_id, chapter_index,
  scene_index, *, novel_settings=None, chapter_plan=None, llm=None, tools=None, settings=None,
  write_json=True, top_k=10)` → SceneMemoryContext (only memories/states from before the scene;
  `degraded` lists what could not be used). Writes `<project>/scene_<c>_<s>_memory.json`; never
  raises for retrieval or write failures. `MemoryTools(search, entity_state=None, timeline=None)`
  wires partial capability; `derive_analysis(plan, names)` is the offline analysis.
- `close_memory()`: closes the process's Qdrant clients (call on shutdown). Local Qdrant admits one
  process per path: another process gets keyword-only search with a `degraded` note.
"""
