"""The code blocks of docs/bindings.md that the tests run, found by the comment above each one."""
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "bindings.md"

_BLOCK = re.compile(r"<!-- checked: (?P<checker>\S+)[^>]*-->\s*\n```python\n(?P<code>.*?)\n```", re.S)


def python_blocks(checker):
    """The Python blocks of docs/bindings.md marked `<!-- checked: <checker> ... -->`, in order."""
    blocks = [m.group("code") for m in _BLOCK.finditer(DOC.read_text()) if m.group("checker") == checker]
    assert blocks, f"no checked Python block for {checker} in {DOC}"
    return blocks
