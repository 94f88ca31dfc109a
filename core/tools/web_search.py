"""Web search for analyze_topic through a SearXNG instance (SEARCH_URL). Real results or none, never made up."""

from __future__ import annotations

from typing import Any

import aiohttp

from core.settings import Settings
from schemas.ppt import SearchResult, SearchResults


class SearchError(Exception):
    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message


class SearxngSearch:
    def __init__(self, base_url: str, *, timeout_s: float = 8.0, max_results: int = 8) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = aiohttp.ClientTimeout(total=timeout_s)
        self.max_results = max_results

    async def search(self, query: str) -> SearchResults:
        params = {"q": query, "format": "json"}
        try:
            async with aiohttp.ClientSession(timeout=self.timeout) as session:
                async with session.get(f"{self.base_url}/search", params=params) as response:
                    if response.status != 200:
                        raise SearchError(f"the search service answered HTTP {response.status}")
                    body: dict[str, Any] = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError) as error:
            raise SearchError(f"the search service could not be reached ({type(error).__name__})") from error
        results = [
            SearchResult(title=item.get("title", ""), url=item["url"], snippet=item.get("content", "") or "")
            for item in body.get("results", [])
            if item.get("url")
        ][: self.max_results]
        return SearchResults(query=query, engine="searxng", results=results)


def tools_from_settings(settings: Settings) -> dict[str, Any]:
    """The tools handed to every flow through FlowContext.tools, by name; absent when not configured."""
    from core.tools.novel import NovelConfig
    from core.tools.repo_access import RepoAccess

    tools: dict[str, Any] = {"repo_access": RepoAccess(settings.repo_roots), "novel": NovelConfig.from_settings(settings)}
    if settings.office_preview:
        from core.tools.office_preview import OfficePreview, available

        if available() is None:
            tools["office_preview"] = OfficePreview()
    from core.legal import LegalKnowledge

    tools["legal"] = LegalKnowledge.from_settings(settings)
    if settings.search_url:
        tools["web_search"] = SearxngSearch(settings.search_url, timeout_s=settings.search_timeout_s)
    return tools
