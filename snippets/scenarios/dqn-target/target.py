# raises: soft-update-error RuntimeError
"""DQN targets: .detach() vs torch.no_grad(), no gradient reaches the target
network, hard and soft updates."""

# --8<-- [start:setup]
import copy

import torch
from torch import nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target = copy.deepcopy(policy)  # (1)!
state, next_state = torch.randn(16, 4), torch.randn(16, 4)
action = torch.randint(0, 2, (16,))
reward, done, gamma = torch.randn(16), torch.zeros(16), 0.99

q = policy(state).gather(1, action[:, None]).squeeze(1)
# --8<-- [end:setup]

# --8<-- [start:two-targets]
from autograd_lens import (
    SavedTensorLedger,
    parameters_with_grad,
    reached_parameters,
)

with SavedTensorLedger() as with_detach:
    y_detach = (
        reward + gamma * (1 - done) * target(next_state).max(1).values.detach()
    )  # (1)!
with SavedTensorLedger() as with_no_grad:
    with torch.no_grad():  # (2)!
        y_no_grad = (
            reward + gamma * (1 - done) * target(next_state).max(1).values
        )

print("same targets:", torch.equal(y_detach, y_no_grad))
print(
    "tensors saved for backward: detach",
    with_detach.count,
    "| no_grad",
    with_no_grad.count,
)
assert torch.equal(y_detach, y_no_grad)
assert with_no_grad.count == 0 < with_detach.count

loss = nn.functional.smooth_l1_loss(q, y_no_grad)
print("loss reaches target params:", reached_parameters(loss, target))
loss.backward()
print("policy params with .grad:", len(parameters_with_grad(policy)))
print("target params with .grad:", parameters_with_grad(target))
assert (
    parameters_with_grad(target) == []
    and len(parameters_with_grad(policy)) == 4
)
# --8<-- [end:two-targets]

# --8<-- [start:eval-is-not-enough]
target.eval()  # (1)!
y_eval = reward + gamma * (1 - done) * target(next_state).max(1).values
loss = nn.functional.smooth_l1_loss(q, y_eval)
print("eval() target requires_grad:", y_eval.requires_grad)
print("loss reaches target params:", reached_parameters(loss, target))
assert reached_parameters(loss, target) == [
    n for n, _ in target.named_parameters()
]
assert torch.equal(
    y_eval.detach(), y_no_grad
)
# --8<-- [end:eval-is-not-enough]

# --8<-- [start:semi-gradient]
policy.zero_grad()
q = policy(state).gather(1, action[:, None]).squeeze(1)
y_same = reward + gamma * policy(next_state).max(1).values  # (1)!
nn.functional.mse_loss(q, y_same.detach()).backward(retain_graph=True)
g_semi = policy[0].weight.grad.clone()
policy.zero_grad()
nn.functional.mse_loss(q, y_same).backward()
g_full = policy[0].weight.grad.clone()
print("gradient changes without detach:", not torch.allclose(g_semi, g_full))
assert not torch.allclose(g_semi, g_full)
# --8<-- [end:semi-gradient]

# --8<-- [start:hard-update]
with torch.no_grad():
    policy[0].weight.add_(1.0)
target.load_state_dict(policy.state_dict())  # (1)!
pairs = list(zip(target.parameters(), policy.parameters()))
same_values = all(torch.equal(a, b) for a, b in pairs)
shared = any(a.data_ptr() == b.data_ptr() for a, b in pairs)
print("hard update: equal values", same_values, "| shared storage", shared)
assert same_values and not shared
# --8<-- [end:hard-update]

# --8<-- [start:soft-update-error]
tau = 0.005
for t, p in zip(target.parameters(), policy.parameters()):
    t.mul_(1 - tau).add_(tau * p)  # (1)!
# --8<-- [end:soft-update-error]

# --8<-- [start:soft-update]
with torch.no_grad():  # (1)!
    policy[0].weight.add_(1.0)
    expected = (1 - tau) * target[0].weight + tau * policy[0].weight
    for t, p in zip(target.parameters(), policy.parameters()):
        t.lerp_(p, tau)
print(
    "soft update matches formula:", torch.allclose(target[0].weight, expected)
)
w = target[0].weight
print("target weight requires_grad:", w.requires_grad, "| grad_fn:", w.grad_fn)
assert (
    torch.allclose(target[0].weight, expected)
    and target[0].weight.grad_fn is None
)
# --8<-- [end:soft-update]
