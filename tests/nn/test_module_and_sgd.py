"""nn.Module / Parameter / init, SGD, and the seed's Linear module trained by SGD."""

import numpy as np
import pytest

import opyard
from opyard import nn

from seed_functions import LinearFunction  # the seed's class, defined once


class Linear(nn.Module):
    """The seed's module, verbatim with torch -> opyard."""

    def __init__(self, input_features, output_features, bias=True):
        super(Linear, self).__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(opyard.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(opyard.empty(output_features))
        else:
            self.register_parameter('bias', None)
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )


def test_parameter_defaults_and_repr():
    p = nn.Parameter(opyard.zeros(2))
    assert isinstance(p, opyard.Tensor) and p.requires_grad and p.is_leaf
    assert repr(p).startswith("Parameter containing:\ntensor(")
    assert not nn.Parameter(opyard.zeros(2), requires_grad=False).requires_grad


def test_seed_linear_registers_parameters_and_prints_extra_repr():
    m = Linear(3, 2)
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    assert repr(m) == "Linear(input_features=3, output_features=2, bias=True)"
    w = m.weight.detach().numpy()
    assert np.all(np.abs(w) <= 0.1)
    m2 = Linear(3, 2, bias=False)
    assert m2.bias is None and [n for n, _ in m2.named_parameters()] == ["weight"]
    assert "bias=False" in repr(m2)


def test_module_tree_buffers_state_dict():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = Linear(4, 3)
            self.fc2 = nn.Linear(3, 1)
            self.register_buffer("steps", opyard.zeros(1))

        def forward(self, x):
            return self.fc2(self.fc1(x))

    net = Net()
    assert [n for n, _ in net.named_children()] == ["fc1", "fc2"]
    assert len(list(net.modules())) == 3
    assert [n for n, _ in net.named_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps"]
    sd = net.state_dict()
    assert list(sd) == ["steps", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"] or \
        set(sd) == {"steps", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}
    other = Net()
    other.load_state_dict(sd)
    assert np.allclose(other.fc1.weight.detach().numpy(), net.fc1.weight.detach().numpy())
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "fc2.bias"'):
        other.load_state_dict({k: v for k, v in sd.items() if k != "fc2.bias"})
    assert net(opyard.randn(5, 4)).shape == (5, 1)
    assert "(fc1): Linear(input_features=4, output_features=3, bias=True)" in repr(net)


def test_train_eval_and_zero_grad():
    m = Linear(2, 1)
    assert m.training
    m.eval()
    assert not m.training
    m.train()
    m(opyard.randn(3, 2)).sum().backward()
    assert m.weight.grad is not None
    m.zero_grad()
    assert m.weight.grad is None


def test_parameter_type_errors():
    m = nn.Module()
    with pytest.raises(TypeError, match="cannot assign 'int' object to parameter 'p'"):
        m.register_parameter("p", 3)

    class NoInit(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(opyard.zeros(1))

    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__\\(\\) call"):
        NoInit()


def test_init_functions():
    w = nn.Parameter(opyard.empty(20, 30))
    nn.init.zeros_(w)
    assert np.all(w.detach().numpy() == 0) and w.requires_grad and w.grad_fn is None
    nn.init.ones_(w)
    assert np.all(w.detach().numpy() == 1)
    nn.init.constant_(w, 0.3)
    assert np.allclose(w.detach().numpy(), 0.3)
    nn.init.normal_(w, 0.0, 0.01)
    assert abs(float(w.detach().numpy().std()) - 0.01) < 0.005
    nn.init.xavier_uniform_(w)
    assert np.all(np.abs(w.detach().numpy()) <= np.sqrt(6 / 50) + 1e-6)
    nn.init.kaiming_uniform_(w)
    # a=0 means a slope of 0, so the gain is sqrt(2)
    assert np.all(np.abs(w.detach().numpy()) <= np.sqrt(3) * np.sqrt(2.0) / np.sqrt(30) + 1e-6)


def test_sgd_momentum_and_weight_decay():
    p = nn.Parameter(opyard.tensor([1.0, 2.0]))
    opt = opyard.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.5)
    p.grad = opyard.tensor([1.0, 1.0])
    opt.step()
    assert np.allclose(p.detach().numpy(), [1 - 0.1 * 1.5, 2 - 0.1 * 2.0])
    opt.zero_grad()
    assert p.grad is None
    with pytest.raises(ValueError, match="Invalid learning rate"):
        opyard.optim.SGD([p], lr=-1)


def test_linear_regression_loss_falls_100x():
    opyard.manual_seed(0)
    true_w = opyard.tensor([[2.0, -3.0, 0.5]])
    x = opyard.randn(64, 3)
    y = x.mm(true_w.t()) + 0.7
    model = Linear(3, 1)
    opt = opyard.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(150):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach().numpy()))
    assert losses[-1] * 100 <= losses[0]
