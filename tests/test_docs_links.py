"""Every link between the docs leads somewhere: the file exists, and so does the heading (or
``<a id>``) its ``#anchor`` names, as GitHub makes heading anchors."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "shared_rules").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.*)$", re.M)
ANCHOR = re.compile(r'<a id="([^"]+)">')


def anchors(text: str) -> set[str]:
    """GitHub's anchors: headings lowercased, punctuation dropped, spaces to hyphens; the
    second heading of one name gets ``-1``, the third ``-2``."""
    seen: Counter[str] = Counter()
    found = set(ANCHOR.findall(text))
    for heading in HEADING.findall(text):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
        seen[slug] += 1
    return found


def broken_links(doc: Path) -> list[str]:
    broken = []
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target):  # https:, mailto:: not ours to check
            continue
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text()):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_link_leads_somewhere(doc: Path) -> None:
    assert broken_links(doc) == []


def test_anchors_are_made_as_github_makes_them() -> None:
    text = "# The server\n## Chat\n### `chat`\n### `chat`\n## What a move costs (2026-12-06)\n"
    assert anchors(text) == {"the-server", "chat", "chat-1", "chat-2",
                             "what-a-move-costs-2026-12-06"}
