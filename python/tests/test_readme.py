"""The README's example service is real: it is served and called as written."""

from __future__ import annotations

import re
import types
from pathlib import Path

from conftest import decode, post

from statewire_nodes import NodeService
from statewire_nodes.serve import BackgroundServer

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_serves_and_keeps_its_total():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    module = types.ModuleType("readme_example")
    exec(compile(code, str(README), "exec"), module.__dict__)
    svc = module.svc
    assert isinstance(svc, NodeService) and list(svc.functions) == ["counter__add"]
    with BackgroundServer(svc) as url:
        decode(post(f"{url}/call/counter__add", {"inputs": {"x": 2}}))
        body = decode(post(f"{url}/call/counter__add", {"inputs": {"x": 1}, "config": {"scale": 10}}, "json"))
    assert body["outputs"] == {"total": 12}
    assert body["containers"]["tally"]["states"]["total"]["value"] == 12
