"""Operator tags: ``opyard.Tag`` as ``torch.Tag``, ``OpOverload.tags`` of the built-in
aten operators (torch's), and the tags of operators users define."""

import subprocess
import sys

import pytest

import opyard
from opyard import Tag
from opyard._aten import LIB, tags as aten_tags
from opyard.library import Library

T = Tag

# torch 2.15: [(name, value)] of torch.Tag.
TORCH_TAGS = [
    ("core", 0), ("cudagraph_unsafe", 1), ("data_dependent_output", 2), ("dynamic_output_shape", 3),
    ("flexible_layout", 4), ("generated", 5), ("inplace", 6), ("inplace_view", 7),
    ("maybe_aliasing_or_mutating", 8), ("needs_contiguous_strides", 9), ("needs_exact_strides", 10),
    ("needs_fixed_stride_order", 11), ("nondeterministic_bitwise", 12),
    ("nondeterministic_seeded", 13), ("out", 14), ("out_variant", 15), ("pointwise", 16),
    ("pt2_compliant_tag", 17), ("reduction", 18), ("view_copy", 19),
]


def test_tag_members_values_and_texts_are_torchs():
    assert [(t.name, t.value) for t in Tag] == TORCH_TAGS
    assert repr(T.core) == "<Tag.core: 0>" and str(T.pointwise) == "Tag.pointwise"
    assert int(T.view_copy) == 19 and Tag(17) is T.pt2_compliant_tag
    assert opyard._C.Tag is Tag


# What torch 2.15 prints for these overloads' .tags.
@pytest.mark.parametrize("op, expected", [
    ("add.Tensor", [T.core, T.pointwise, T.pt2_compliant_tag]),
    ("add_.Tensor", [T.inplace, T.pointwise, T.pt2_compliant_tag]),
    ("add.Scalar", [T.core, T.pointwise, T.pt2_compliant_tag]),
    ("abs.default", [T.core, T.pointwise, T.pt2_compliant_tag]),
    ("view.default", [T.core, T.pt2_compliant_tag]),
    ("nonzero.default", [T.core, T.dynamic_output_shape, T.pt2_compliant_tag]),
    ("rand_like.default", [T.nondeterministic_seeded, T.pt2_compliant_tag]),
    ("allclose.default", [T.data_dependent_output, T.pt2_compliant_tag]),
    ("sum.dim_IntList", [T.core, T.pt2_compliant_tag, T.reduction]),
    ("cat.default", [T.core, T.pt2_compliant_tag]),
    ("clone.default", [T.core, T.pointwise, T.pt2_compliant_tag]),
    ("mm.default", [T.core, T.pt2_compliant_tag]),
    ("detach.default", [T.pt2_compliant_tag]),
    ("copy_.default", [T.inplace, T.pt2_compliant_tag]),
])
def test_builtin_ops_carry_torchs_tags(op, expected):
    name, overload = op.split(".")
    assert getattr(getattr(opyard.ops.aten, name), overload).tags == expected


def test_every_builtin_op_is_pt2_compliant_and_ordered_by_value():
    for qualified in LIB._defined:
        op = opyard._core._find_op(qualified)
        tags = op.tags
        assert T.pt2_compliant_tag in tags, qualified
        assert [t.value for t in tags] == sorted({t.value for t in tags}), qualified


def test_tag_table_names_are_native_functions_overloads():
    """Every overload the table tags is a row of native_functions (a typo would tag nothing)."""
    from pathlib import Path
    rows = (Path(__file__).parents[1] / "data" / "native_functions.tsv").read_text().splitlines()
    names = {r.split("(")[0] for r in rows if not r.startswith("#")}
    table, default = aten_tags.load()
    assert set(table) <= names and len(table) > 1400
    assert default == (T.pt2_compliant_tag,)
    assert table["index_put_"] == (T.inplace, T.pt2_compliant_tag)


def test_table_is_read_only_when_tags_are_asked():
    code = ("import opyard, opyard._ops as o; assert not o._LOADED; "
            "opyard.ops.aten.mul.Tensor.tags; assert len(o._LOADED) == 1; "
            "opyard.ops.aten.sin.default.tags; assert len(o._LOADED) == 1")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bad_tag_name_in_data_is_reported(monkeypatch, tmp_path):
    bad = tmp_path / "tags.txt"
    bad.write_text("# comment\ncore,pointwize: add.Tensor\n")
    monkeypatch.setattr(aten_tags, "DATA", str(bad))
    error = r"tags.txt:2: unknown tag 'pointwize'; the tags are \['core'"
    with pytest.raises(RuntimeError, match=error):
        aten_tags.load()


@pytest.mark.parametrize("tags, expected", [
    ((), []),
    (T.pointwise, [T.pointwise]),
    ([T.core, T.pointwise, T.core], [T.core, T.pointwise, T.core]),  # as given, like torch
    ((T.needs_fixed_stride_order,), [T.needs_fixed_stride_order]),
])
def test_library_define_tags(ns, tags, expected):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> Tensor", tags=tags)
    assert getattr(opyard.ops, ns).f.default.tags == expected


@pytest.mark.parametrize("tags", [["core"], (T.core, 5), [None]])
def test_library_define_refuses_non_tags(ns, tags):
    lib = Library(ns, "DEF")
    with pytest.raises(TypeError, match=r"tags must be opyard.Tag members"):
        lib.define("f(Tensor x) -> Tensor", tags=tags)


def test_custom_op_tags_follow_pt2_compliant_tag(ns):
    @opyard.library.custom_op(f"{ns}::f", mutates_args=(), tags=(T.pointwise, T.core))
    def f(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()

    assert getattr(opyard.ops, ns).f.default.tags == [T.pt2_compliant_tag, T.pointwise, T.core]


def test_user_op_in_a_fresh_namespace_is_not_pt2_compliant_by_default(ns):
    lib = Library(ns, "DEF")
    lib.define("g(Tensor x) -> Tensor")
    assert getattr(opyard.ops, ns).g.default.tags == []


def test_redefined_op_takes_its_new_tags(ns):
    lib = Library(ns, "DEF")
    lib.define("h(Tensor x) -> Tensor", tags=T.core)
    lib._destroy()
    lib = Library(ns, "DEF")
    lib.define("h(Tensor x) -> Tensor", tags=(T.reduction,))
    assert getattr(opyard.ops, ns).h.default.tags == [T.reduction]
