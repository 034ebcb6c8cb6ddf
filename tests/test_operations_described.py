"""Each operation is described once (`ari_cli/operations/`): no other module asks which operation it has.

Read from the source with `ast`. Outside the descriptors, `cli/` (a command group per operation), `wire/` (the
service's contract) and `sandbox/` (its emulator), a module may not name an operation's member
(`Operation.POLICY`), compare anything with an operation's name (`operation == "policy"`) or make an operation
from a literal name (`Operation("threshold")`): whatever differs between operations is a descriptor's field.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from ari_cli.inputs.names import normalize
from ari_cli.operations import DESCRIPTORS, Descriptor
from ari_cli.operations.descriptor import Level
from ari_cli.wire.models import BODY_MODELS, dump_body
from ari_cli.wire.operations import Operation

PACKAGE = Path(__file__).resolve().parent.parent / "ari_cli"
ALLOWED = ("operations", "cli", "wire", "sandbox")
NAMES = {op.value for op in Operation}
MEMBERS = {op.name for op in Operation}


def _modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in ALLOWED]


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def branches(source: str) -> Iterator[tuple[int, str]]:
    """Where `source` tells operations apart by themselves: each line and what it names."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Operation":
            if node.attr in MEMBERS:
                yield node.lineno, f"Operation.{node.attr}"
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _is_name(side):
                    assert isinstance(side, ast.Constant)
                    yield node.lineno, f"a comparison with {side.value!r}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Operation":
            yield from ((node.lineno, "an operation made from its name") for arg in node.args if _is_name(arg))


def test_the_finder_finds_a_branch_on_an_operation() -> None:
    """Each way of telling operations apart is found (else the test below would pass on anything)."""
    code = """
if operation is Operation.POLICY:
    pass
LABEL = {Operation.THRESHOLD: "Threshold"}
with_rate = view.operation != "threshold"
shown = words(value) if "policy" == operation else value
first = Operation("maxadv")
"""
    assert sorted(line for line, _ in branches(code)) == [2, 4, 5, 6, 7]
    assert list(branches("columns = descriptor.columns\nname = 'threshold'\n")) == []


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_descriptors_branches_on_an_operation(path: Path) -> None:
    found = [f"line {line}: {what}" for line, what in branches(path.read_text(encoding="utf-8"))]
    assert found == [], "read the operation's descriptor (ari_cli/operations/) instead"


def test_every_operation_has_its_descriptor() -> None:
    assert set(DESCRIPTORS) == set(Operation) and len(DESCRIPTORS) == len(Operation)
    assert all(d.operation is op for op, d in DESCRIPTORS.items())


@pytest.mark.parametrize("descriptor", list(DESCRIPTORS.values()), ids=lambda d: d.name)
def test_a_descriptor_is_whole(descriptor: Descriptor) -> None:
    """What the stages take from a descriptor agrees with itself: its value's column is its own and its body's
    marks name it, its aliases are of its own columns, a rate column only where a value is set per rate."""
    assert set(descriptor.aliases) <= set(descriptor.own_columns)
    assert descriptor.optional <= set(descriptor.own_columns)
    assert descriptor.key_fields[:2] == ("propertyid", "roomid")
    assert ("rateid" in descriptor.columns) is descriptor.has_rate
    if isinstance(descriptor.rule, Level):
        field = descriptor.rule.field
        assert field in descriptor.own_columns and field in descriptor.body_keys
        assert {normalize(a) for a in descriptor.aliases.get(field, ())} <= descriptor.body_keys
        assert descriptor.batched and descriptor.steps and not descriptor.structured


def test_a_layout_is_what_the_wire_model_dumps() -> None:
    """A data record laid out by its descriptor is the wire model's record, field for field and in order."""
    for descriptor in DESCRIPTORS.values():
        if descriptor.layout is None:
            continue
        key = ("H1", "DBL", "BAR")[: len(descriptor.key_fields)]
        laid = descriptor.layout("2027-01-01", "2027-01-31", key, 7)
        body = {"sharepost": "k", "sourceid": "cpb01", "propertyid": "H1", "action": descriptor.action, "data": [laid]}
        dumped = dump_body(BODY_MODELS[descriptor.operation].model_validate(body))
        assert dumped["data"] == [laid]
        assert list(dumped["data"][0]) == list(laid)
