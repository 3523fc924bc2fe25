"""The project's documents and the code that cites them agree.

Code, tests and the documents cite docs/rules.md as `RULES §1.9`, `RULES 1.9` or
`RULES.md §1.9`, and docs/protocol.md as `PROTOCOL §2a` or `PROTOCOL.md §2a`, often with
more sections after the first (`RULES §1.5-§1.9, §2, §9`, `PROTOCOL §3/§5`, `RULES 1.9 and
9`). A section is cited by a heading with its number (`### 1.9 Rating`, `### 2a.
Additions`). A `§n` without a document's name beside it (`the fish of §1.4`) must name a
section of one of the two. `DESIGN` and `DESIGN.md` cite docs/design.md, and a topic named
after it (`DESIGN security`, `DESIGN.md's layering`) must be one of its headings' words.
`PROTOCOL view.chain` names a field the contract's `view` has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
DOCUMENTS = {"RULES": DOCS / "rules.md", "PROTOCOL": DOCS / "protocol.md"}
DESIGN = DOCS / "design.md"

# Where citations are looked for. This file is left out: its own examples of citations
# that must fail are not citations.
SCANNED = [REPO / "app", REPO / "tests", REPO / "benchmarks", DOCS, REPO / "README.md"]
SUFFIXES = {".py", ".js", ".mjs", ".html", ".css", ".json", ".lua", ".md", ".toml", ".txt"}
SKIPPED_PARTS = {"__pycache__", "node_modules", ".venv", ".venv-run"}

# A section number: 1, 1.9, 1.10, 2a. Not a longer word or number (12th, 1.9.3).
NUMBER = r"\d+(?:\.\d+)?[a-z]?(?![\w]|\.\d)"
# More sections after the first: ", §12", " and §9", "/§5", "-1.8", an en dash and "§2g", " or 9".
MORE = rf"(?:[ \t]*(?:,|/|\band\b|\bor\b|\bto\b|-|\u2013)[ \t]*(?:§[ \t]?)?{NUMBER})*"
# After a bare `§n`, a plain number is a section only in a range ("§7-12"): "§2, 125" is not.
MORE_BARE = (rf"(?:[ \t]*(?:(?:,|/|\band\b|\bor\b|\bto\b)[ \t]*§[ \t]?|[-\u2013][ \t]*(?:§[ \t]?)?)"
             rf"{NUMBER})*")
# The first section: after `§` (also on the next line of a comment: "PROTOCOL\n# §2a"), or
# after a space on the same line ("RULES 1.9").
FIRST = rf"(?:[ \t]*(?:\n[ \t]*(?:#|//|\*)?[ \t]*)?§[ \t]?{NUMBER}|[ \t]+{NUMBER})"
CITATION = re.compile(rf"\b(RULES|PROTOCOL)(?:\.md)?(?:'s)?(?P<sections>{FIRST}{MORE})")
BARE = re.compile(rf"(?<![\w§])(?P<sections>§[ \t]?{NUMBER}{MORE_BARE})")
SECTION = re.compile(NUMBER)
HEADING = re.compile(rf"^#{{1,6}}[ \t]+({NUMBER})\.?(?=[ \t])", re.M)
DESIGN_CITATION = re.compile(r"\bDESIGN(?:\.md)?(?:'s)?\b(?:[ \t]+(?P<topic>[a-z]+))?")
NOT_TOPICS = {"and", "or", "is", "in", "of", "the", "a", "an", "says", "said", "for", "to"}
VIEW_FIELD = re.compile(r"\bPROTOCOL(?:'s)?[ \t]+`?view\.(?P<field>[a-z_]+)")


@dataclass(frozen=True)
class Citation:
    where: str  # path:line
    document: str | None  # "RULES", "PROTOCOL", or None for a bare `§n`
    section: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text!r} cites {self.document or 'a'} section {self.section}"


def sections_of(markdown: str) -> set[str]:
    """The section numbers a document's headings carry."""
    return set(HEADING.findall(markdown))


def citations(text: str, where: str = "<text>") -> list[Citation]:
    """Every section that `text` cites, named by document where the citation names one."""
    found: list[Citation] = []
    taken: list[tuple[int, int]] = []
    for match in CITATION.finditer(text):
        taken.append(match.span())
        line = text.count("\n", 0, match.start()) + 1
        for number in SECTION.findall(match["sections"]):
            found.append(Citation(f"{where}:{line}", match[1], number, match[0].strip()))
    for match in BARE.finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue
        line = text.count("\n", 0, match.start()) + 1
        for number in SECTION.findall(match["sections"]):
            found.append(Citation(f"{where}:{line}", None, number, match[0].strip()))
    return found


def unresolved(found: list[Citation], known: dict[str, set[str]]) -> list[Citation]:
    """The citations whose section no heading of the cited document (of either, when the
    citation names none) carries."""
    anywhere = set().union(*known.values())
    return [c for c in found
            if c.section not in (known[c.document] if c.document else anywhere)]


def scanned_files() -> list[Path]:
    files: list[Path] = []
    for root in SCANNED:
        candidates = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in candidates:
            if (path.is_file() and path.suffix in SUFFIXES and path != Path(__file__).resolve()
                    and not SKIPPED_PARTS.intersection(path.parts)):
                files.append(path)
    return files


def known_sections() -> dict[str, set[str]]:
    return {name: sections_of(path.read_text(encoding="utf-8"))
            for name, path in DOCUMENTS.items()}


def every_citation() -> list[Citation]:
    found: list[Citation] = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found.extend(citations(text, str(path.relative_to(REPO))))
    return found


def test_the_parser_finds_citations_and_flags_a_missing_section() -> None:
    known = {"RULES": {"1", "1.9", "1.10", "2", "9"}, "PROTOCOL": {"2", "2a", "3", "5"}}
    text = ("# Rating gains of RULES.md §1.9 and §9; a resignation is RULES 1.10.\n"
            "# PROTOCOL §2a/§3, PROTOCOL.md §5, and the fish of §1.4 in PROTOCOL\n"
            "# §2b, RULES §1-§2, RULES 1.9 / 9; FIRST_RULES = 1; RULES 12th.\n")
    found = citations(text)
    assert [(c.document, c.section) for c in found] == [
        ("RULES", "1.9"), ("RULES", "9"), ("RULES", "1.10"),
        ("PROTOCOL", "2a"), ("PROTOCOL", "3"), ("PROTOCOL", "5"), ("PROTOCOL", "2b"),
        ("RULES", "1"), ("RULES", "2"), ("RULES", "1.9"), ("RULES", "9"),
        (None, "1.4"),
    ]
    # §2b exists nowhere in `known`; §1.4 is in neither document here.
    assert [(c.document, c.section) for c in unresolved(found, known)] == [
        ("PROTOCOL", "2b"), (None, "1.4")]
    # A bare section that one of the documents has resolves; a section of the other
    # document does not resolve when the citation names this one.
    assert unresolved(citations("as §2a says"), known) == []
    assert [c.section for c in citations("the fish as in §2, 125; §7-12")] == ["2", "7", "12"]
    assert [c.section for c in citations("PROTOCOL §1\u20132 says")] == ["1", "2"]
    assert [c.section for c in unresolved(citations("RULES §2a"), known)] == ["2a"]


def test_headings_give_their_section_numbers() -> None:
    markdown = ("# Title\n## 1. Goat\n### 1.9 Rating (stored)\n### 1.10 Timeouts\n"
                "### 2a. Additions (they extend §1\u2013§2)\n#### 12. General\n"
                "## Not a section 3\n  ## 4. indented is not a heading\n")
    assert sections_of(markdown) == {"1", "1.9", "1.10", "2a", "12"}


def test_the_documents_carry_the_sections_the_code_cites() -> None:
    known = known_sections()
    assert {"1", "1.9", "1.10", "10", "12"} <= known["RULES"]
    assert {"1", "2", "2a", "2b", "2c", "2d", "2e", "2f", "2g", "3", "4", "5"} <= known["PROTOCOL"]
    found = every_citation()
    assert len(found) > 100  # the parser still sees the code's citations
    missing = unresolved(found, known)
    assert not missing, "cited sections that no document has:\n" + "\n".join(map(str, missing))


def test_design_citations_name_its_headings() -> None:
    headings = " ".join(re.findall(r"^#{1,6}[ \t]+(.*)$", DESIGN.read_text(encoding="utf-8"),
                                   re.M)).lower()
    wrong = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in DESIGN_CITATION.finditer(text):
            topic = match["topic"]
            if topic and topic not in NOT_TOPICS and topic not in headings:
                wrong.append(f"{path.relative_to(REPO)}: {match[0]!r}")
    assert not wrong, "DESIGN topics with no heading in docs/design.md:\n" + "\n".join(wrong)


def test_view_fields_the_code_names_are_in_the_contract() -> None:
    protocol = DOCUMENTS["PROTOCOL"].read_text(encoding="utf-8")
    view = protocol[protocol.index("`view` —"):protocol.index("### 2a.")]
    wrong = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in VIEW_FIELD.finditer(text):
            if f'"{match["field"]}"' not in view:
                wrong.append(f"{path.relative_to(REPO)}: {match[0]!r}")
    assert not wrong, "view fields docs/protocol.md does not have:\n" + "\n".join(wrong)


def test_the_readme_links_the_three_documents() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name in ("rules", "protocol", "design"):
        assert f"](docs/{name}.md)" in readme, f"README does not link docs/{name}.md"
    # The documents are the repository's own: the README names no file outside it.
    outside = re.findall(r"(?<!docs/)\b(?:RULES|PROTOCOL|DESIGN)\.md\b", readme)
    assert not outside, f"README names {outside} instead of docs/*.md"
