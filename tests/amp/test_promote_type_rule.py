"""``amp.promote_type`` as autocast's ``prioritize``: a lower-precision dtype with itself stays, any
float32 makes float32, float64 tensors are ignored."""

import pytest

import opyard


F16, F32, F64, BF16 = opyard.float16, opyard.float32, opyard.float64, opyard.bfloat16


@pytest.mark.parametrize("start, dtypes, expected", [
    (F16, [F16, F16], F16), (F16, [F16], F16), (BF16, [BF16, BF16], BF16),  # same lower precision stays
    (F16, [F16, F32], F32), (F16, [F32], F32),                              # any float32 makes float32
    (F16, [F16, F64], F16), (F16, [F64], F16),                              # float64 is ignored
    (F32, [F16], F32),
])
def test_promote_type_prioritizes_as_autocast(start, dtypes, expected):
    tensors = [opyard.ones(2, dtype=d) for d in dtypes]
    assert opyard.amp.promote_type(start, *tensors) is expected


def test_promote_type_still_refuses_two_different_lower_precisions():
    with pytest.raises(RuntimeError, match="unexpected floating dtype opyard.bfloat16"):
        opyard.amp.promote_type(F16, opyard.ones(2, dtype=BF16))
