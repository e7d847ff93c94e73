"""Help ▸ Manual (and Help ▸ Quick start): the manual's Markdown pages, offline.

The pages are the ones in the repository, ``resources/manual/`` (read by
:mod:`twtw_desktop.manual`), rendered by Qt's own Markdown reader. On the left the
table of contents — every page found there, with its sections — and a search box:
typing lists the sections that hold every word, with how often; choosing one opens
it with the first match selected (Enter goes to the next match). Links between pages
and to a heading (``page.md#a-heading``, the anchors GitHub gives) open in the same
view, Back returns; a link out of the manual (a web address, a file of the
repository) goes to the system's browser.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ... import manual

_TARGET = Qt.ItemDataRole.UserRole


class ManualDialog(QDialog):
    """The manual: contents and search on the left, the page on the right."""

    def __init__(self, parent: QWidget | None = None, page: str = manual.INDEX) -> None:
        super().__init__(parent)
        self.setObjectName("manual_dialog")
        self.setWindowTitle("Manual")
        self.resize(980, 660)
        self.current: tuple[str, str] = ("", "")
        self.history: list[tuple[str, str]] = []
        lay = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        side = QVBoxLayout(left)
        side.setContentsMargins(0, 0, 0, 0)
        self.search = QLineEdit()
        self.search.setObjectName("manual_search")
        self.search.setPlaceholderText("Search the manual…")
        self.search.setClearButtonEnabled(True)
        side.addWidget(self.search)
        self.found = QLabel("")
        self.found.setObjectName("manual_found")
        side.addWidget(self.found)
        self.contents = QTreeWidget()
        self.contents.setObjectName("manual_contents")
        self.contents.setHeaderHidden(True)
        side.addWidget(self.contents, 1)
        split.addWidget(left)
        self.view = QTextBrowser()
        self.view.setObjectName("manual_text")
        self.view.setOpenLinks(False)
        split.addWidget(self.view)
        split.setStretchFactor(1, 3)
        split.setSizes([260, 700])
        lay.addWidget(split, 1)
        row = QHBoxLayout()
        self.back = QPushButton("◀ Back")
        self.back.setObjectName("manual_back")
        self.back.setEnabled(False)
        row.addWidget(self.back)
        row.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row.addWidget(buttons)
        lay.addLayout(row)
        self.view.anchorClicked.connect(self.follow)
        self.contents.itemActivated.connect(self._open_item)
        self.contents.itemClicked.connect(self._open_item)
        self.search.textChanged.connect(self.list_matches)
        self.search.returnPressed.connect(self.next_match)
        self.back.clicked.connect(self.go_back)
        self.list_contents()
        self.show_page(page)

    # -- the left column ------------------------------------------------------------

    def list_contents(self) -> None:
        """Every page and its sections."""
        self.contents.clear()
        for page in manual.pages():
            top = QTreeWidgetItem([page.title])
            top.setData(0, _TARGET, (page.name, ""))
            for h in page.headings:
                if h.level == 2:
                    child = QTreeWidgetItem([h.title])
                    child.setData(0, _TARGET, (page.name, h.anchor))
                    top.addChild(child)
            self.contents.addTopLevelItem(top)
        self.found.setText("")

    def list_matches(self, words: str) -> None:
        """The sections that hold every word (the contents again when empty)."""
        if not words.strip():
            self.list_contents()
            return
        self.contents.clear()
        titles = {p.name: p.title for p in manual.pages()}
        hits = manual.search(words)
        for hit in hits:
            where = titles.get(hit.page, hit.page)
            text = where if hit.heading == where else f"{where} ▸ {hit.heading}"
            item = QTreeWidgetItem([f"{text} ({hit.count})"])
            item.setData(0, _TARGET, (hit.page, hit.anchor))
            self.contents.addTopLevelItem(item)
        self.found.setText(f"{len(hits)} section(s)" if hits else "Nothing found")

    def _open_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        target = item.data(0, _TARGET)
        if target:
            self.show_page(target[0], target[1])
            self.next_match()

    def next_match(self) -> bool:
        """Select the next place the first search word occurs on the page (wrapping
        to the top once); False when the page does not hold it."""
        words = self.search.text().split()
        if not words:
            return False
        if self.view.find(words[0]):
            return True
        self.view.moveCursor(QTextCursor.MoveOperation.Start)
        return self.view.find(words[0])

    # -- the page -------------------------------------------------------------------

    def show_page(self, name: str, anchor: str = "", remember: bool = True) -> None:
        """Open a page of the manual at a heading (its GitHub anchor)."""
        if remember and self.current[0]:
            self.history.append(self.current)
            self.back.setEnabled(True)
        if name != self.current[0]:
            page = manual.read_page(name)
            doc = self.view.document()
            doc.setBaseUrl(QUrl.fromLocalFile(str(manual.manual_dir()) + "/"))
            self.view.setMarkdown(page.text)
            self.setWindowTitle(f"Manual — {page.title}")
        self.current = (name, anchor)
        self.scroll_to(anchor)

    def scroll_to(self, anchor: str) -> bool:
        """Put the heading with this anchor at the top of the view (the page's top
        for none); False when the page has no such heading."""
        doc = self.view.document()
        target = doc.begin() if not anchor else None
        seen: dict[str, int] = {}
        block = doc.begin()
        while anchor and block.isValid():
            if block.blockFormat().headingLevel() > 0:
                base = manual.slug(block.text())
                n = seen.get(base, 0)
                seen[base] = n + 1
                if (f"{base}-{n}" if n else base) == anchor:
                    target = block
                    break
            block = block.next()
        if target is None:
            return False
        cursor = QTextCursor(target)
        self.view.setTextCursor(cursor)
        top = doc.documentLayout().blockBoundingRect(target).top()
        bar = self.view.verticalScrollBar()
        bar.setValue(min(bar.maximum(), int(top)))
        return True

    def follow(self, url: QUrl) -> None:
        """A link clicked on the page: within the manual here, anything else outside."""
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        path, anchor = url.path(), url.fragment()
        if not path:
            self.show_page(self.current[0], anchor)
            return
        resolved = (manual.manual_dir() / path).resolve()
        if resolved.parent == manual.manual_dir().resolve() and resolved.suffix == ".md":
            if resolved.is_file():
                self.show_page(resolved.name, anchor)
            return
        if resolved.exists():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(resolved)))

    def go_back(self) -> None:
        if self.history:
            name, anchor = self.history.pop()
            self.show_page(name, anchor, remember=False)
        self.back.setEnabled(bool(self.history))

    def page_text(self) -> str:
        return self.view.document().toPlainText()
