"""A real preview of the .pptx: LibreOffice renders it to PDF, pdftoppm makes per-slide thumbnails.

Each conversion gets its own LibreOffice profile (`-env:UserInstallation`), so conversions may run
side by side. Without `soffice` (Debian `libreoffice-impress`) or `pdftoppm` (`poppler-utils`)
there is no real preview and the reason says so.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CONVERT_TIMEOUT_S = 120
THUMB_WIDTH_PX = 480


@dataclass
class Preview:
    pdf: bytes | None = None
    thumbnails: list[bytes] = field(default_factory=list)  # JPEG per slide
    missing: str | None = None  # what is not installed, when there is no preview


def soffice_path() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def available() -> str | None:
    """None when a real preview can be made, else the missing program."""
    if soffice_path() is None:
        return "soffice"
    if shutil.which("pdftoppm") is None:
        return "pdftoppm"
    return None


def pptx_to_pdf(pptx: bytes, workdir: Path) -> bytes:
    source = workdir / "deck.pptx"
    source.write_bytes(pptx)
    profile = workdir / "lo-profile"
    subprocess.run(
        [soffice_path(), f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
         "--convert-to", "pdf", "--outdir", str(workdir), str(source)],
        check=True, capture_output=True, timeout=CONVERT_TIMEOUT_S,
    )
    return (workdir / "deck.pdf").read_bytes()


def render_preview(pptx: bytes, *, thumbnails: bool = True) -> Preview:
    missing = available()
    if missing:
        return Preview(missing=missing)
    with tempfile.TemporaryDirectory(prefix="deck-preview-") as tmp:
        workdir = Path(tmp)
        pdf = pptx_to_pdf(pptx, workdir)
        images: list[bytes] = []
        if thumbnails:
            subprocess.run(["pdftoppm", "-jpeg", "-jpegopt", "quality=80", "-scale-to-x", str(THUMB_WIDTH_PX),
                            "-scale-to-y", "-1", str(workdir / "deck.pdf"), str(workdir / "page")],
                           check=True, capture_output=True, timeout=CONVERT_TIMEOUT_S)
            images = [path.read_bytes() for path in sorted(workdir.glob("page-*.jpg"), key=_page_number)]
        return Preview(pdf=pdf, thumbnails=images)


def _page_number(path: Path) -> int:
    return int(path.stem.rsplit("-", 1)[1])


def data_url(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode()


class OfficePreview:
    """The `office_preview` tool flows get through FlowContext.tools (absent when disabled or not installed)."""

    def render(self, document: bytes) -> Preview:
        return render_preview(document)
