"""The reader view: a citation, a source or a figure opens its page in a large dialog — the page image at full width
with the passage highlighted (yellow: the cited passage, orange: the sentences the answer quotes; a figure framed),
previous / next page, a jump to any page, and the original PDF to download whole (opening at that page) or as
the one page. On a phone the dialog takes the whole width.

State: ``st.session_state["reader"]`` = {"target": ReaderTarget.to_dict(), "page": n}, and a one-shot request
(``"reader_open"``) set by the click and by the dialog's own controls, consumed when the dialog is drawn: the page
calls ``reader_if_open()`` last (one dialog per run). Moving between pages reruns the dialog alone, so it stays
open; a later run of the whole page (after closing it, a question) leaves it closed — it never reopens by itself."""
from __future__ import annotations

import streamlit as st

from pages._shared import escape_markdown, get_service, show_error
from rag.errors import RagError
from rag.evidence.reader import ReaderTarget

STATE = "reader"
JUMP = "reader_jump"
REQUEST = "reader_open"

# the title and page controls stay in view while the page scrolls (the dialog's own title drawn above the strip that
# covers the page scrolling under the dialog's top padding: tour 48 saw "Reader" cut off), and its close button above
# the title (tour 49: the title's box took the clicks on ✕); on a phone a whole page at
# screen width is too small to read: there the page is drawn 760 px wide and scrolls sideways (the app's own CSS; no
# book text in it)
_READER_CSS = """<style>
[data-testid="stDialog"] > div:has(.st-key-reader-head) { overflow: visible !important; }
[data-testid="stLayoutWrapper"]:has(> .st-key-reader-head) { position: sticky; top: 0; z-index: 2; }
.st-key-reader-head { padding: 0.25rem 0 0.5rem 0; }
[role="dialog"]:has(.st-key-reader-head) > h2 { position: relative; z-index: 3; }
[role="dialog"]:has(.st-key-reader-head) button[aria-label="Close"] { z-index: 4; }
@media (max-width: 700px) {
  .st-key-reader-page { overflow-x: auto; }
  .st-key-reader-page [data-testid="stFullScreenFrame"] > div { justify-content: flex-start !important; }
  .st-key-reader-page [data-testid="stImage"], .st-key-reader-page [data-testid="stImage"] img {
    width: 760px !important; max-width: none !important; }
}
</style>"""

# scrolls the dialog so that the highlight (data.focus: [x, y] as shares of the page image's size; [0, 0]: the top)
# is in view, gives the sticky header the dialog's background and keeps the focus in the dialog (Escape closes it);
# it sets no content, and needs the page's DOM
# (isolate_styles=False) only to find the image and the header
_scroll_to_highlight = st.components.v2.component("folio_reader_focus", isolate_styles=False, js="""
export default function ({ data, parentElement }) {
  const dialog = parentElement.closest('[role="dialog"]');
  if (!dialog) return;
  const head = dialog.querySelector('.st-key-reader-head');
  const sticky = head && head.parentElement;
  if (head) {  // the sticky header takes the dialog's own background (light or dark theme)
    let el = head.parentElement, bg = '';
    while (el && (!bg || bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) {
      bg = getComputedStyle(el).backgroundColor;
      el = el.parentElement;
    }
    if (bg) {
      head.style.background = bg;
      // the page scrolls under the dialog's top padding, above the sticky header: a shadow of the same colour
      // covers that strip (it takes no room)
      if (sticky) { sticky.style.background = bg; sticky.style.boxShadow = `0 -3rem 0 0 ${bg}`; }
    }
  }
  // a control that was clicked and is gone ("Cited page" on the cited page) leaves the focus outside the dialog,
  // where Escape no longer closes it (tour 47): the dialog takes it back
  if (!dialog.contains(document.activeElement)) {
    if (!dialog.hasAttribute('tabindex')) dialog.setAttribute('tabindex', '-1');
    dialog.focus({ preventScroll: true });
  }
  const focus = data && Array.isArray(data.focus) ? data.focus : null;
  if (!focus) return;
  let tries = 0;
  const go = (again) => {
    const imgs = dialog.querySelectorAll('[data-testid="stImage"] img');
    const img = imgs[imgs.length - 1];
    if (!img || !img.complete || !img.naturalHeight) { if (tries++ < 50) setTimeout(() => go(again), 100); return; }
    let box = img.parentElement;
    while (box && box !== document.body) {
      const style = getComputedStyle(box);
      if (/(auto|scroll)/.test(style.overflowY) && box.scrollHeight > box.clientHeight) break;
      box = box.parentElement;
    }
    const rect = img.getBoundingClientRect();
    const wide = img.closest('.st-key-reader-page');
    if (wide && wide.scrollWidth > wide.clientWidth) wide.scrollLeft = Math.max(0, rect.width * focus[0] - 16);
    if (!box || box === document.body) return;
    const below = head ? head.getBoundingClientRect().height : 0;  // the sticky header covers the top
    box.scrollTop += rect.top + rect.height * focus[1] - box.getBoundingClientRect().top - below
                     - (box.clientHeight - below) * 0.25;
    if (again > 0) setTimeout(() => go(again - 1), 400);  // the dialog may still be laying out below the image
  };
  go(2);
}
""")


def open_target(target: ReaderTarget) -> None:
    st.session_state[STATE] = {"target": target.to_dict(), "page": target.page}
    st.session_state[JUMP] = target.page
    st.session_state[REQUEST] = True


def open_source(answer: dict, n: int, occurrence: int = 0) -> None:
    """Open source [n] of a stored answer (``Answer.to_dict()``) in the reader, at the passage its
    ``occurrence``-th [n] closes."""
    from pages._widgets import _source

    s = next((x for x in answer.get("sources") or [] if int(x["n"]) == int(n)), None)
    if s is None:
        return
    try:
        open_target(get_service().reader.open_source(_source(s), answer.get("text", ""), occurrence))
    except RagError as e:
        st.session_state[STATE] = {"error": str(e)}
        st.session_state[REQUEST] = True


def open_source_button(answer: dict, src, key: str, disabled: bool = False) -> None:
    page = src.hit.label_start or src.hit.page_start
    st.button("", key=key, icon=":material/menu_book:", help=f"Read p. {page}, the passage highlighted",
              on_click=open_source, args=(answer, src.n), disabled=disabled)


def _open_figure(f: dict) -> None:
    try:
        open_target(get_service().reader.open_figure(f["book_id"], f["id"], int(f["page"]),
                                                     title=f.get("caption") or f"Figure on p. {f['page_label']}"))
    except RagError as e:
        st.session_state[STATE] = {"error": str(e)}
        st.session_state[REQUEST] = True


def open_figure_button(f: dict, key: str, disabled: bool = False) -> None:
    st.button(f"Page {f['page_label']}", key=key, icon=":material/menu_book:", on_click=_open_figure, args=(f,),
              help="Open the figure's page in the reader", disabled=disabled, width="stretch")


def _close() -> None:
    st.session_state.pop(STATE, None)


def _go(n: int) -> None:
    st.session_state[STATE]["page"] = n
    st.session_state[JUMP] = n
    st.session_state[REQUEST] = True  # still open should the whole page run (the dialog alone usually does)


def _jumped() -> None:
    st.session_state[STATE]["page"] = int(st.session_state[JUMP])
    st.session_state[REQUEST] = True


@st.dialog("Reader", width="large", icon=":material/menu_book:")
def _reader() -> None:
    st.session_state.pop(REQUEST, None)  # shown: a later run of the whole page leaves it closed
    state = st.session_state.get(STATE) or {}
    if "error" in state:
        st.error(state["error"], icon="⚠️")
        return
    svc = get_service()
    target = ReaderTarget.from_dict(state["target"])
    try:
        page = svc.reader.read(target, state.get("page"))
    except RagError as e:
        st.error(str(e), icon="📕")
        return
    except Exception as e:  # noqa: BLE001 - a message, never a traceback
        show_error(e)
        return
    st.html(_READER_CSS)
    with st.container(key="reader-head", gap="small"):  # stays at the top while the page scrolls
        if target.title:
            st.markdown(f"**{escape_markdown(target.title)}**")
        st.caption(escape_markdown(f"{page.book_title} · {page.where}"))
        n, count = page.number, page.count
        with st.container(horizontal=True, vertical_alignment="center", gap="small", key="reader-nav"):
            st.button("", icon=":material/chevron_left:", on_click=_go, args=(n - 1,), disabled=n <= 1,
                      key="reader-prev", help="Previous page")
            if JUMP not in st.session_state:
                st.session_state[JUMP] = n
            st.selectbox("Go to page", range(1, count + 1), key=JUMP, on_change=_jumped, width=180,
                         format_func=lambda i: f"p. {page.labels[i - 1]} ({i}/{count})", label_visibility="collapsed",
                         help="Type a page number to jump to it")
            st.button("", icon=":material/chevron_right:", on_click=_go, args=(n + 1,), disabled=n >= count,
                      key="reader-next", help="Next page")
            if n != target.page:
                st.button("Cited page", icon=":material/undo:", on_click=_go, args=(target.page,), type="tertiary",
                          key="reader-back", help="Back to the page the citation points to")
            if st.button("", icon=":material/close:", key="reader-close", help="Close the reader (Esc)",
                         type="tertiary"):
                _close()
                st.rerun()  # the whole page, without the dialog
    if page.image is not None:
        note = ("Yellow: the cited passage · orange: the sentences the answer quotes" if target.spans else
                "The figure is framed") if page.highlighted else ""
        with st.container(key="reader-page"):
            st.image(str(page.image), width="stretch")
        if note:
            st.caption(note)
        # a page without a highlight opens at its top (tour 47: after "Next" the page kept the last one's scroll)
        _scroll_to_highlight(key="reader-focus", data={"focus": [round(v, 4) for v in page.focus] if page.focus
                                                        else [0.0, 0.0], "page": n, "target": target.title})
    else:
        st.warning(page.problem, icon="🖼️")
        st.text(page.text or "(this page has no text)")
    conf = svc.reader.ocr_confidence(page.book_id, n)
    if conf is not None:
        st.caption(f"This page was scanned and read by OCR (confidence {conf:.0f}%): trust the image over its text.")
    stem = (page.filename.rsplit(".", 1)[0] or "book")[:60]
    with st.container(horizontal=True, gap="small", key="reader-files"):
        st.download_button("This page (PDF)", data=lambda: svc.reader.page_pdf(page.book_id, n),
                           file_name=f"{stem} - page {n}.pdf", mime="application/pdf", on_click="ignore",
                           icon=":material/download:", key="reader-dl-page")
        st.download_button("Whole book, opens at this page", data=lambda: svc.reader.book_pdf(page.book_id, n),
                           file_name=f"{stem}.pdf", mime="application/pdf", on_click="ignore",
                           icon=":material/download:", key="reader-dl-book")
        uploaded = svc.reader.uploaded_file(page.book_id)
        if uploaded is not None:  # an EPUB, Word, HTML … book: its pages are a PDF laid out from it
            st.download_button(f"The {uploaded.suffix.lstrip('.').upper()} as uploaded", data=uploaded.read_bytes,
                               file_name=f"{stem}{uploaded.suffix}", on_click="ignore", icon=":material/download:",
                               key="reader-dl-source")
    if page.image is not None:
        with st.expander("Text of this page", key="reader-text", on_change="rerun", type="compact") as box:
            if box.open:
                st.text(page.text or "(this page has no text)")


def reader_if_open() -> None:
    """Show the reader when a citation, source or figure asked for it in this run (call last on the page)."""
    if st.session_state.get(REQUEST) and st.session_state.get(STATE):
        _reader()
