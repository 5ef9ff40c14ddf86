"""``PythonDispatcher``, the what-if table calculator, with torch's keys and texts.

Expected texts are what torch 2.15 prints (tests/data/python_dispatcher.json).
"""

import json
import pathlib
import warnings

import pytest

from opyard.dispatcher import PythonDispatcher

DATA = pathlib.Path(__file__).parents[1] / "data" / "python_dispatcher.json"
TORCH_PD = json.loads(DATA.read_text())

CIA = "CompositeImplicitAutograd"
CEA = "CompositeExplicitAutograd"


@pytest.mark.parametrize("case", TORCH_PD, ids=lambda c: "+".join(c["keys"]) or "none")
def test_python_dispatcher_prints_torchs_texts(case):
    d = PythonDispatcher()
    d.register(case["keys"])
    assert d.dispatchTable() == case["dispatchTable"]
    assert d.registrations() == case["registrations"]


def test_python_dispatcher_keys_and_raw_texts():
    d = PythonDispatcher()
    assert d.keys() == ["CPU", "AutogradCPU", "FPGA", "AutogradOther", "XLA", "AutogradXLA", "Lazy",
                        "AutogradLazy", CEA, "Autograd", CIA]
    d.register(["AutogradCPU"])
    d.register([CIA])
    raw = d.rawRegistrations()
    assert raw.startswith("name: __test__::foo\nschema: __test__::foo(Tensor x) -> Tensor\n")
    assert "test_python_dispatcher.py:" in raw.splitlines()[2]
    schema = "(Tensor _0) -> Tensor _0 [ boxed unboxed ]"
    assert raw.endswith(f"AutogradCPU: fn_AutogradCPU :: {schema}\n"
                        f"{CIA}[alias]: fn_{CIA} :: {schema}\n")
    table = d.rawDispatchTable()
    assert f"Undefined: fn_{CIA} [math kernel]\n" in table and "MAIA: fn_" in table
    assert "AutogradCPU: fn_AutogradCPU [kernel]\n" in table
    assert "BackendSelect: fallthrough registered at " in table


@pytest.mark.parametrize("keys, error", [
    (["CPU", "CPU"], r"Overridden is not allowed but found duplicates in \['CPU', 'CPU'\]\."),
    ([CIA, CEA], "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd "
                 "is not allowed."),
    (["CUDA"], r"CUDA is not supported, please select a dispatch key in \['CPU', 'AutogradCPU', "),
    (["Meta"], "Meta is not supported"),
    (["CompositeExplicitAutogradNonFunctional"],
     "CompositeExplicitAutogradNonFunctional is not supported"),
    (["cpu"], "cpu is not supported"),
])
def test_python_dispatcher_refuses_as_torch(keys, error):
    with pytest.raises(RuntimeError, match=error):
        PythonDispatcher().register(keys)


def test_python_dispatcher_registers_until_the_bad_key_and_warns_on_override():
    d = PythonDispatcher()
    with pytest.raises(RuntimeError, match="MPS is not supported"):
        d.register(["XLA", "MPS"])
    assert "XLA             fn_XLA [kernel]" in d.dispatchTable()
    override = "(?s)Overriding a previously registered kernel.*dispatch key: XLA"
    with pytest.warns(UserWarning, match=override):
        d.register(["XLA"])
    assert d.registrations().count("fn_XLA") == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PythonDispatcher().register(["XLA"])  # a fresh dispatcher starts empty
