"""The binding layer's house rules (README "Layout", src/python/): `mod.rs` only calls each area's
``register(m)``; every ``unsafe``, raw CPython/numpy API (``ffi::``) and PyO3 internal (``impl_::``)
lives in ``src/python/ffi/``, each ``unsafe`` with its ``SAFETY`` comment (a ``# Safety`` section
for an unsafe function); process-wide statics holding Python objects outside the switchboard
(``hooks.rs``) are the caches and registries listed here, none installed by a higher layer.

The Rust sources are read as text (comments and string literals are blanked first).
"""

import os
import re

import pytest

BINDING = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "src", "python")
FFI = os.path.join(BINDING, "ffi")

_STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def _code(line):
    """``line`` without its string literals and its ``//`` comment."""
    line = _STRING.sub('""', line)
    cut = line.find("//")
    return line if cut < 0 else line[:cut]


def _sources(top=BINDING):
    for folder, _, files in os.walk(top):
        for name in sorted(files):
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, BINDING), f.read().split("\n")


def _hits(pattern, top=BINDING):
    rx = re.compile(pattern)
    return [f"{path}:{n + 1}: {line.strip()}" for path, lines in _sources(top)
            for n, line in enumerate(lines) if rx.search(_code(line))]


def _outside_ffi(hits):
    return [h for h in hits if not h.startswith("ffi" + os.sep)]


def test_the_sources_are_there():
    assert os.path.isdir(FFI), "run from a checkout: src/python/ffi/ holds the binding layer's unsafe"


def test_the_root_holds_only_mod_hooks_errors():
    files = sorted(n for n in os.listdir(BINDING) if n.endswith(".rs"))
    assert files == ["errors.rs", "hooks.rs", "mod.rs"]
    with open(os.path.join(BINDING, "mod.rs"), encoding="utf-8") as f:
        body = [_code(line).strip() for line in f]
    calls = [line for line in body if "(" in line and not line.startswith(("fn ", "#"))]
    assert all(re.fullmatch(r"(\w+::register\(m\)\??;?|\w+::register\(m\)|m\.add\(.*\)\?;)", c)
               for c in calls), calls


@pytest.mark.parametrize("what, pattern", [
    ("unsafe", r"\bunsafe\b"),
    ("a raw CPython or numpy call", r"(?<!std::)(?<!python::)\bffi::|\bnpyffi\b"),
    ("a PyO3 internal", r"\bimpl_::"),
])
def test_only_ffi_reaches_below_pyo3(what, pattern):
    assert _outside_ffi(_hits(pattern)) == [], f"{what} outside src/python/ffi/"


def _unexplained(lines, n, line):
    code = _code(line)
    m = re.search(r"\bunsafe\b", code)
    if re.search(r"\btype\s+\w+\s*=\s*unsafe\b", code):
        return False  # a function pointer type, not an unsafe operation
    want = "# Safety" if re.match(r"\s*(fn|extern)\b", code[m.end():]) else "SAFETY"
    if want in line:
        return False
    # The comment sits above the statement: walk up through comments, attributes
    # and the statement's first lines (at most three), never past a blank line.
    k, code_lines = n - 1, 0
    while k >= 0 and lines[k].strip():
        text = lines[k].strip()
        if text.startswith(("//", "#[")):
            if want in text:
                return False
        else:
            code_lines += 1
            if code_lines > 3:
                break
        k -= 1
    return True


def test_every_unsafe_says_why():
    sites, unexplained = 0, []
    for path, lines in _sources(FFI):
        for n, line in enumerate(lines):
            if re.search(r"\bunsafe\b", _code(line)):
                sites += 1
                if _unexplained(lines, n, line):
                    unexplained.append(f"{path}:{n + 1}: {line.strip()}")
    assert sites > 0
    assert unexplained == []


# Process-wide statics outside hooks.rs that hold Python objects, by role. None holds a callable
# that a higher layer installs (those are fields of `Hooks`); a new one belongs in the switchboard
# or, if it is a cache or a registry of the layer that owns it, in this list with its reason.
ALLOWED_STATICS = {
    "BATCHED_TYPE": "batched/mod.rs: vmap's batched tensor class and general constructor, from the hook once",
    "LEVELS": "batched/mod.rs: the thread's transform stack list, read once per thread (thread-local state)",
    "LEVEL_LAYOUT": "batched/mod.rs: the slot layout of vmap's level record class, measured once",
    "ARGUMENT_ERROR": "errors.rs: the exception class the core creates on first use",
    "ARGUMENT_OVERFLOW_ERROR": "errors.rs: the exception class the core creates on first use",
    "SCHEMA_ERROR": "errors.rs: the exception class the core creates on first use",
    "STACK": "autograd/saved_hooks: the thread's saved-tensor hook pairs (thread-local state)",
    "EXTRA": "kernels_py: the tensor subclasses the Rust kernels take as plain (a registry)",
    "PLAIN": "dispatch/binder: the plain tensor types (a registry)",
    "TYPE_CACHE": "dispatch/binder: per-type protocol answers (a cache)",
    "NUMPY_SCALARS": "dispatch/binder: numpy's scalar types, imported on first use",
    "DEFINERS": "dispatch/lazy: the definers of packets defined on first use (a registry)",
    "MODE": "fake/key: the thread's active fake mode (thread-local state)",
    "DTYPES": "fake/key, tensor/base: dtypes and devices already seen (caches)",
    "DEVICES": "fake/key: devices already seen (a cache)",
    "LAYOUT": "autograd/saved: SavedTensor's slot layout, measured once",
    "META": "autograd/saved: the tensor metadata saved for backward (a cache)",
    "KEYSET_INTS": "tensor/attrs: key sets as Python ints (a cache)",
    "DEFAULTS": "tensor/base: a fresh tensor's field values (SlotDefaults), made once",
    "CPU": "tensor/base: the cpu device, made once",
    "SLOTS_OFFSET": "tensor/base: the __slots__ offset, measured once",
    "OWNERS": "ffi/buffer_pool: large result buffers kept for reuse (a bounded pool)",
    "TENSOR_BASE": "tensor/base: TensorBase's class, found once (a pointer PyO3 never frees)",
    "DEVICE": "tensor/device: device's class, found once (a pointer PyO3 never frees)",
    "RUST_KERNEL": "dispatch/operator: a kernel class of the core, found once",
    "BATCHED_POINTWISE": "dispatch/operator: a kernel class of the core, found once",
    "PLAIN_AUTOGRAD": "dispatch/operator: a kernel class of the core, found once",
    "FAKE_FALLBACK": "dispatch/operator: a kernel class of the core, found once",
    "VERSION_COUNTER": "tensor/version: _VersionCounter's class, found once (a pointer PyO3 never frees)",
    "NODE_BASE": "autograd/node: NodeBase's class, found once (a pointer PyO3 never frees)",
    "FUNCTION_SPEC": "dispatch/operator: a kernel class of the core, found once",
    "KEPT": "ffi/vectorcall: one argument tuple per length kept for reuse (a bounded cache)",
}


def test_statics_holding_python_objects_are_listed():
    rx = re.compile(r"\bstatic\s+(\w+)\s*:\s*(.*)")
    python = re.compile(r"Py|GILOnceCell|GILProtected|TypeSlots|SlotDefaults")
    found = set()
    for path, lines in _sources():
        if path == "hooks.rs":
            continue
        for line in lines:
            m = rx.search(_code(line))
            if m and python.search(m.group(2)):
                found.add(m.group(1))
    assert sorted(found - set(ALLOWED_STATICS)) == []
    assert sorted(set(ALLOWED_STATICS) - found) == []


def test_no_late_binding_setters():
    # `_core` functions (not methods of one object) that store what a Python layer hands them: the
    # switchboard's one install, and the registrations and thread-state switches of the layers
    # that own them.
    allowed = {"_install_hooks", "_register_plain_tensor_type", "_set_function_state",
               "_set_python_key_included", "_set_forward_ad_active"}
    rx = re.compile(r"^(?:pub(?:\(crate\))?\s+)?fn\s+(_(?:set|register|install)_\w+)")
    found = {m.group(1) for _, lines in _sources() for line in lines
             for m in [rx.search(_code(line))] if m}
    assert sorted(found - allowed) == []
