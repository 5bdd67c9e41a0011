"""The README stays true: every setting documented with its default and description."""
from rag.settings import settings_table
from tests.conftest import ROOT


def test_readme_documents_every_setting():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [row for row in settings_table().splitlines()[2:] if row not in readme]
    assert not missing, "README settings table is out of date:\n" + "\n".join(missing)
