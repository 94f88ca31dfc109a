"""Prompts of the PPT stages. A real model reads everything from here; the JSON schema is added by the LLM layer."""

from __future__ import annotations

import json
from typing import Any

from schemas.ppt import CourseConfig, PresentationTheme, TopicAnalysis, VideoOutline

SYSTEM = (
    "You are an instructional designer who turns a topic into a short lecture video and its slide deck. "
    "Write in the language of the user's request. Answer with JSON only, matching the given schema."
)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def _feedback(feedback: str | None) -> str:
    return f"\nThe user reviewed the previous version and asks: “{feedback}”. Apply this feedback." if feedback else ""


def analyze(request: str) -> str:
    return (
        f"User request: “{request}”.\nExtract the topic (without words like 'make a PPT'), its language (zh or en), "
        "up to 6 keywords, and the audience and duration in minutes if the request names them."
    )


def course_config(analysis: TopicAnalysis, search: dict[str, Any] | None, feedback: str | None) -> str:
    context = f"\nWeb search results:\n{_json(search['results'][:5])}" if search else ""
    return (
        f"Topic analysis:\n{_json(analysis.model_dump())}{context}\n"
        "Design the course: narrativeStyle, targetAudience, duration (minutes; keep the requested one if given, "
        "else 10), and 3-5 measurable objectives." + _feedback(feedback)
    )


# A deck told at work or in public (planning.deck_setting) is worded for its listeners, not for a class.
TALK_SETTING = ("\nThis deck is a talk at work or in public, not a class: word it for that setting (an agenda, cases, "
                "what it means for the listeners, discussion), never as a lesson (no 本课, class activities or classmates).")
# A training at work teaches how to do something: a real model gets the parts the offline one uses.
TRAINING_SETTING = ("\nThis deck is a training session at work, not a class and not a status report: build it from how-to "
                    "parts (why it matters, the rules, the steps, common mistakes, practice and a check), worded for staff "
                    "at their jobs (an agenda, workplace examples, practice), never as a lesson (no 本课, classmates) nor "
                    "as a report (no background, stakeholders, what went well, next steps).")
# A lesson reading a work (a book, poem, essay, play, film, painting): a real model gets the parts the offline one uses.
WORK_LESSON_SETTING = ("\nThis deck is a lesson reading a work (a book, poem, essay, play, film or painting), not a science "
                       "topic: build it from a literature teacher's parts (the author and background, what it tells or "
                       "its plot, its characters if it tells a story or its imagery if it is a poem, its language and "
                       "techniques, its themes and meaning, discussion), with close reading of the text, quotations and "
                       "discussion as activities; never mechanisms, applications, trends or experiments.")
# A lesson on a historical event, period or person: a real model gets the parts the offline one uses.
HISTORY_LESSON_SETTING = ("\nThis deck is a history lesson on an event, a period or a person, not a science topic: build it "
                          "from a history teacher's parts (for an event the background and causes, the course of events on "
                          "a timeline, the key people, the consequences and significance; for a period or dynasty its "
                          "society, culture, achievements and legacy; for one side of a period (its science, its art, daily life) "
                          "its times, main features, leading figures, how it developed and its legacy; for a person their times, life, deeds, how history "
                          "judges them and their legacy; always primary sources and historians' differing views, "
                          "discussion), with source reading, timelines and debate as activities; never mechanisms, "
                          "applications, trends, experiments or 'everyday life' examples.")
# A lesson on a language (a tense, a word class, vocabulary, pinyin, 文言文虚词): a real model gets the parts the offline one uses.
LANGUAGE_LESSON_SETTING = ("\nThis deck is a language lesson (grammar, vocabulary, sounds or writing of a language), not a science "
                           "topic: build it from a language teacher's parts (the form and how it is built, its meaning and when "
                           "to use it, example sentences and a short dialogue in context, the common mistakes learners make, "
                           "practice from controlled to free, and a speaking or writing task), with real example sentences in "
                           "the language taught, drills, error correction and pair work as activities; never mechanisms, "
                           "applications, trends, experiments or 'observe a phenomenon'.")
# A talk to the public (parents, residents, a club): a real model gets the parts the offline one uses.
PUBLIC_TALK_SETTING = ("\nThis deck is a public talk for its listeners (parents, residents, members of a club), not a class and "
                       "not a report at work: build it from a speaker's parts (a question or scene to open, why it matters to "
                       "these listeners, a few key points each with an everyday example, what they can do at home or from "
                       "tomorrow, their questions), worded for adults in their own lives, never as a lesson (no 本课, "
                       "textbook, classmates, homework) nor as a report (no next steps with owners and dates).")
SETTING_NOTES = {"public_talk": PUBLIC_TALK_SETTING, "talk": TALK_SETTING, "training": TRAINING_SETTING, "work_lesson": WORK_LESSON_SETTING,
                 "history_lesson": HISTORY_LESSON_SETTING, "language_lesson": LANGUAGE_LESSON_SETTING}


def video_outline(analysis: TopicAnalysis, config: CourseConfig, feedback: str | None, setting: str = "lesson",
                  slide_count: int | None = None) -> str:
    pages = f" and {slide_count} slides (enough points that no slide repeats another)" if slide_count else ""
    return (
        f"Topic: {analysis.topic}\nCourse config:\n{_json(config.model_dump())}\n"
        "Write the video outline: theme and knowledgeUnits (title, description, knowledgePoints), "
        f"sized for {config.duration} minutes{pages}." + SETTING_NOTES.get(setting, "") + _feedback(feedback)
    )


def slide_scripts(analysis: TopicAnalysis, config: CourseConfig, outline: VideoOutline, slide_count: int,
                  budget: int, feedback: str | None, setting: str = "lesson") -> str:
    unit = "Chinese characters" if analysis.language == "zh" else "words"
    return (
        f"Course config:\n{_json(config.model_dump())}\nVideo outline:\n{_json(outline.model_dump())}\n"
        f"Write exactly {slide_count} slide scripts (slideIndex 1..{slide_count}): page 1 is the cover, the last page "
        f"the summary. Each has title, contentDesign (2-5 short points; write steps as 第一步：…, comparisons as aspect：A｜B, figures as label：number unit), visualSuggestions and narrationScript of about "
        f"{budget} {unit}, so the deck fills {config.duration} minutes." + SETTING_NOTES.get(setting, "")
        + _feedback(feedback)
    )


def presentation_theme(analysis: TopicAnalysis, config: CourseConfig, feedback: str | None,
                       current: str | None = None) -> str:
    changing = f"\nThe deck now wears the theme {current!r}; the feedback asks for another: choose different colours." \
        if feedback and current else ""
    return (
        f"Topic: {analysis.topic}; audience: {config.targetAudience}; style: {config.narrativeStyle}.\n"
        "Choose the presentation theme: themeName, colorScheme (#RRGGBB primary, secondary, accent, background, "
        "text with readable contrast), fontConfig (titleFont, bodyFont, eastAsianFont, titleSize 28-44, bodySize "
        "16-24) and masterSlides for the layouts they plan to use (cover, section, bullets, two_column, comparison, process, chart, summary…)." + _feedback(feedback)
        + changing
    )


LAYOUT_GUIDE = (
    "Layouts and the field each one draws: cover (title, subtitle) for page 1; agenda (bullets = the parts); "
    "section (title, subtitle) to open a unit; bullets (3-6 short bullets, an icon keyword); two_column (columns: "
    "exactly two {heading, items}, e.g. myth / fact); comparison (table: header + rows, one cell per column) when "
    "things are compared aspect by aspect; process (steps: 3-6 {label, detail}) for an ordered procedure; timeline "
    "(steps whose labels are dates) for history; big_number (stat: {value, label}) for one striking figure or key "
    "sentence; chart (chart: {kind column|bar|line|pie, categories, series:[{name, values}], unit}) only with real "
    "figures from the script; image_text (bullets + icon) when a picture explains best; quote (quote: {text, "
    "source}); summary (bullets) for the recap; qa (bullets = questions) to close."
)


def slide_page(script: dict[str, Any], total: int, theme: PresentationTheme, feedback: str | None,
               draft: dict[str, Any] | None = None) -> str:
    suggestion = f"\nA layout read from the script's shape (use it unless another fits better):\n{_json(draft)}" if draft else ""
    return (
        f"Slide script (page {script['slideIndex']} of {total}):\n{_json(script)}\nTheme: {theme.themeName}.{suggestion}\n"
        f"{LAYOUT_GUIDE}\nLay out this page: index, layout, title (under 40 characters), the fields of that layout "
        "(bullets under 60 characters each, at most 6), icon (one English keyword), visuals = the script's visual "
        "suggestions (they are never printed on the slide; realise them through the layout), and notes = the "
        "narration script unchanged. Plain text only: no markdown, no emoji." + _feedback(feedback)
    )


def revise_page(page: dict[str, Any], total: int, theme: PresentationTheme, feedback: str) -> str:
    return (
        f"A finished slide (page {page['index']} of {total}), theme {theme.themeName}:\n{_json(page)}\n{LAYOUT_GUIDE}\n"
        "Rewrite only this page as the feedback asks; keep its index and its notes (the narration) unchanged, and "
        "keep whatever the feedback does not mention. Plain text only: no markdown, no emoji." + _feedback(feedback)
    )


def added_slide_script(analysis: TopicAnalysis, outline: dict[str, Any], subject: str | None, index: int, total: int,
                       budget: int, neighbours: dict[str, str | None], feedback: str) -> str:
    unit = "Chinese characters" if analysis.language == "zh" else "words"
    about = f"about “{subject}”" if subject else "on a point of the outline the deck would gain from (an example, an application)"
    return (
        f"A finished deck on “{analysis.topic}” (language {analysis.language}) gets a new page {about}, as page {index} of "
        f"{total}, between “{neighbours['before'] or '(start)'}” and “{neighbours['after'] or '(end)'}”.\nVideo outline:\n"
        f"{_json(outline)}\nWrite this one slide script: slideIndex {index}, title, contentDesign (2-5 short points), "
        f"visualSuggestions and narrationScript of about {budget} {unit}, in the deck's language. It must not repeat "
        "its neighbours." + _feedback(feedback)
    )


def restate_analysis(analysis: TopicAnalysis, language: str) -> str:
    name = "Chinese" if language == "zh" else "English"
    return (
        f"Topic analysis of a finished deck:\n{_json(analysis.model_dump())}\nThe deck is to be rewritten in {name}. "
        f"Give the same analysis with topic, keywords and audience translated into {name} (language {language}); "
        "keep the duration and the slide count."
    )


def feedback_intent(text: str, topic: str) -> str:
    return (
        f"The current deck is about “{topic}”. The user now writes: “{text}”.\n"
        "Is this a request for a new deck on another subject (intent INITIAL), feedback on the current deck "
        "(intent REFINEMENT), or a change none of the stages below can make (intent UNSUPPORTED)? For "
        "REFINEMENT give targetStage: generate_slides for visuals/layout, generate_video_outline for structure "
        "or content, generate_presentation_theme for colours/fonts, generate_slide_scripts for narration, "
        "revise_pages (with pages: the 1-based page numbers) when the feedback is about particular pages only, "
        "add_slides (count, subject if named, afterPage: the page it follows, 0 for the start, -1 after the last, none "
        "for before the closing pages) for new pages, remove_slides (pages; -1 the last page) to drop pages, "
        "move_slides (pages, and afterPage: where they go, 0 the start, -1 the end; or two pages and no afterPage to "
        "swap them) to reorder pages, "
        "change_language (language zh or en) to rewrite the whole deck in another language."
    )
