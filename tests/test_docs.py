"""The documentation stays true: docs/settings.md is the generated settings table, the README is short and its
module map names every package."""
from rag.settings import settings_document
from tests.conftest import ROOT


def test_settings_document_is_current():
    doc = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert doc == settings_document(), "docs/settings.md is out of date: python -m rag settings > docs/settings.md"


def test_readme_is_short_and_maps_every_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    packages = sorted(p.parent.name for p in (ROOT / "rag").glob("*/__init__.py"))
    missing = [p for p in packages if f"  {p}/" not in readme]
    assert not missing, f"README's module map lacks {missing}"
    for doc in ("architecture", "evaluation", "performance", "settings"):
        assert f"docs/{doc}.md" in readme and (ROOT / "docs" / f"{doc}.md").exists()
