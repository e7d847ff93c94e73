"""The README is a front page and the manual beside it holds the rest: every link
and anchor of both resolves, in the repository as on GitHub (the app opens the same
pages, see tests/ui/test_manual_dialog.py)."""

from __future__ import annotations

from pathlib import Path

from twtw_desktop import manual

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _documents() -> list[Path]:
    return [README, *sorted(manual.manual_dir().glob("*.md"))]


def _broken(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    out = []
    for target in manual.links(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, anchor = manual.split_target(target)
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            out.append(f"{doc.name}: {target}: no file {dest}")
            continue
        if not dest.is_relative_to(ROOT):
            out.append(f"{doc.name}: {target}: outside the repository")
        if anchor:
            if dest.suffix != ".md":
                out.append(f"{doc.name}: {target}: an anchor into a file that is not Markdown")
                continue
            anchors = {h.anchor for h in manual.headings(dest.read_text(encoding="utf-8"))}
            if anchor not in anchors:
                out.append(f"{doc.name}: {target}: no heading #{anchor} in {dest.name}")
    return out


def test_every_link_and_anchor_of_the_readme_and_the_manual_resolves():
    broken = [b for doc in _documents() for b in _broken(doc)]
    assert not broken, "\n".join(broken)


def test_the_link_check_sees_links_and_anchors():
    text = "# A Judge's evening\n\nSee [x](other.md#the-tv) and ![p](a.png).\n\n    [code](no.md)\n"
    assert manual.links(text) == ["other.md#the-tv", "a.png"]
    assert [h.anchor for h in manual.headings(text)] == ["a-judges-evening"]
    assert manual.slug("The table, its journal and `play` scripts") == (
        "the-table-its-journal-and-play-scripts"
    )
    assert [h.anchor for h in manual.headings("# A\n## A\n## A\n")] == ["a", "a-1", "a-2"]


def test_the_readme_is_a_front_page_linking_every_manual_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    linked = {manual.split_target(t)[0] for t in manual.links(text)}
    assert f"resources/manual/{manual.INDEX}" in linked
    index_links = {
        manual.split_target(t)[0] for t in manual.links(manual.read_page(manual.INDEX).text)
    }
    mine = {"quick-start.md", "user-guide.md", "rules-decisions.md", "command-line.md"}
    mine |= {"file-formats.md", "architecture.md", "performance.md"}
    assert mine <= index_links


def test_every_page_has_a_title_and_the_index_comes_first():
    pages = manual.pages()
    assert pages[0].name == manual.INDEX and pages[1].name == manual.QUICK_START
    for page in pages:
        assert page.text.startswith("# "), page.name


def test_search_finds_the_sections_holding_every_word():
    hits = manual.search("miniature scale")
    assert any(h.page == "user-guide.md" and h.anchor == "the-tv" for h in hits)
    assert all(h.count >= 2 for h in hits)
    assert manual.search("   ") == []
    assert manual.search("zzqx no such words") == []


def test_the_bench_rewrites_its_table_in_the_performance_page():
    from twtw_desktop import bench

    text = (ROOT / bench.PERFORMANCE_PAGE).read_text(encoding="utf-8")
    assert bench.README_BEGIN in text and bench.README_END in text
