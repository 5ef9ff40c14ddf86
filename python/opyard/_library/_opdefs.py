"""The custom ops defined now, by qualified name.

Below ``custom_op`` so that the installers (``register``, ``autograd``), opcheck and
fake tensors can ask "is this a custom op?" without importing the module that makes them.
"""

__all__ = ["OPDEFS", "no_fake_impl_message"]

OPDEFS = {}  # "ns::name" or "ns::name.overload" (OpOverload.name()) -> the CustomOpDef defining it


def no_fake_impl_message(opdef):
    """torch's words for a custom op without a fake impl (the features they name are torch's own, and
    code matching them keeps working; the function named is the one ``custom_op`` decorated), then
    what they mean in opyard."""
    name = getattr(opdef._init_fn, "__name__", opdef._qualname.split("::")[1])
    return (f"There was no fake impl registered for {opdef!r}. This is necessary for torch.compile/export/fx "
            f"tracing to work. Please use `{name}.register_fake` to add an fake impl. (In opyard: meta tensors, "
            "fake tensors and opyard.fx.make_fx need it.)")
