"""Upload jobs belong to the browser session that started them (``Library.submit(..., owner=)``): another session
never sees them, their errors or their "clear finished"; everyone sees the books once they are in."""
from tests import pdfs


def test_each_owner_sees_and_clears_only_its_own_jobs(folio, book_pdf):
    lib = folio.library
    a1 = lib.submit(book_pdf, "garden.pdf", owner="session-a")
    b1 = lib.submit(b"hello, not a pdf", "notes.pdf", owner="session-b")
    b2 = lib.submit(pdfs.make_figure_pdf(), "studio.pdf", owner="session-b")
    lib.queue.wait(300)
    assert [j.id for j in lib.jobs("session-a")] == [a1.id]
    assert [j.id for j in lib.jobs("session-b")] == [b1.id, b2.id]
    assert lib.jobs("session-c") == [] and len(lib.jobs()) == 3  # None: every job (the CLI, tests)
    assert a1.state == "done" and b1.state == "failed" and "notes.pdf" in b1.error and b2.state == "done"
    assert all("notes.pdf" not in j.error for j in lib.jobs("session-a"))  # b's error is not in a's list
    assert {b.title for b in lib.books()} == {"Garden and Sky", "Studio Handbook"}  # the books are everyone's

    lib.clear_finished_jobs("session-a")
    assert lib.jobs("session-a") == [] and [j.id for j in lib.jobs("session-b")] == [b1.id, b2.id]
    r = lib.submit_reindex(a1.book_id, owner="session-a")
    assert [j.id for j in lib.jobs("session-a")] == [r.id] and r.owner == "session-a"
    lib.queue.wait(300)
    lib.clear_finished_jobs("session-b")
    assert lib.jobs("session-b") == [] and [j.id for j in lib.jobs("session-a")] == [r.id]
    lib.clear_finished_jobs()
    assert lib.jobs() == []


def test_running_jobs_survive_their_owner_clearing(folio, book_pdf):
    lib = folio.library
    first = lib.submit(pdfs.make_book_pdf("Long", pad=30), "long.pdf", owner="s")
    queued = lib.submit(book_pdf, "garden.pdf", owner="s")
    active = {j.id for j in lib.jobs("s") if j.active}
    lib.clear_finished_jobs("s")  # while they are queued or running: kept
    assert queued.id in active and active <= {j.id for j in lib.jobs("s")}
    lib.queue.wait(300)
    assert first.state == "done" and queued.state == "done"
