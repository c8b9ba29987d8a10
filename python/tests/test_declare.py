"""Declaration mistakes fail when the service is defined, naming the function and the port or field."""

from __future__ import annotations

import pytest

from statewire_nodes import NodeService, Port


def test_unknown_wire_type_names_function_and_port():
    svc = NodeService("s")
    with pytest.raises(ValueError, match=r"function 's__f' input port 'a': unknown wire type 'INTEGER'"):
        svc.function(name="f", inputs={"a": Port("INTEGER")})(lambda a: None)


def test_wire_types_are_canonicalised():
    svc = NodeService("s")

    @svc.function(inputs={"a": "action", "b": Port("list[image]")}, outputs={"c": "Depth"})
    def f(a, b):
        return {}

    fn = svc.manifest()["functions"][0]
    assert [p["wire_type"] for p in fn["input_ports"] + fn["output_ports"]] == [
        "DISCRETE_ACTION",
        "LIST[IMAGE]",
        "DEPTH",
    ]


def test_a_parameter_that_is_no_port_is_refused():
    svc = NodeService("s")
    with pytest.raises(
        TypeError, match=r"parameter 'speed' is not an input port nor one of \(a, config, ctx, inputs\)"
    ):

        @svc.function(inputs={"a": "ANY"})
        def f(a, speed):
            return {}


def test_reserved_port_names_and_duplicate_functions():
    svc = NodeService("s")
    with pytest.raises(ValueError, match="port name 'config' is reserved"):
        svc.function(inputs={"config": "ANY"})(lambda config: None)
    svc.declare("g")
    with pytest.raises(ValueError, match="function 's__g' is declared twice"):
        svc.declare("g")


def test_config_schema_defaults_must_fit_their_field():
    svc = NodeService("s")
    with pytest.raises(ValueError, match=r"config field 'eps': default 2 is above the maximum 1"):
        svc.declare("f", config={"eps": {"type": "number", "default": 2, "maximum": 1}})
    with pytest.raises(ValueError, match=r"config field 'n': unknown type 'int'"):
        svc.declare("h", config={"n": {"type": "int"}})


def test_service_names_cannot_hold_the_separator():
    with pytest.raises(ValueError, match="without '__'"):
        NodeService("a__b")
