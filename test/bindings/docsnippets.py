"""The code blocks of README.md and docs/bindings.md that the tests run, found by the comment above each one."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "docs" / "bindings.md"]

_BLOCK = re.compile(r"<!-- checked: (?P<checker>\S+)[^>]*-->\s*\n```python\n(?P<code>.*?)\n```", re.S)


def python_blocks(checker):
    """The Python blocks of the docs marked `<!-- checked: <checker> ... -->`, in order."""
    blocks = [m.group("code") for doc in DOCS for m in _BLOCK.finditer(doc.read_text()) if m.group("checker") == checker]
    assert blocks, f"no checked Python block for {checker} in {', '.join(str(d.name) for d in DOCS)}"
    return blocks
