# raises: numpy-guard RuntimeError
# raises: conv-features RuntimeError
"""Evidence for smaller claims of the three posts: code comments, table
cells and asides that no other page treats."""

# --8<-- [start:dag]
import math

import torch
from torch import nn

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = (y + y.exp()).mean()


def has_cycle(node, path=()):
    """Depth-first walk over next_functions; True if a path revisits a node."""
    if node is None:
        return False
    if node in path:
        return True
    return any(has_cycle(n, path + (node,)) for n, _ in node.next_functions)


print("cycle in z's graph:", has_cycle(z.grad_fn))
assert not has_cycle(z.grad_fn)
z.backward()
expected = 1 + (2 * x.detach()).exp()
print("x.grad:", x.grad)
assert torch.allclose(x.grad, expected)
# --8<-- [end:dag]

# --8<-- [start:freeze-loop]
torch.manual_seed(0)
net = nn.Sequential()
net.conv = nn.Conv2d(3, 4, 3)
net.bn = nn.BatchNorm2d(4)
net.fc = nn.Linear(4, 10)
for param in net.parameters():
    param.requires_grad = False
frozen = [n for n, p in net.named_parameters() if not p.requires_grad]
print("frozen:")
print("   ", ", ".join(frozen))
assert frozen == [n for n, _ in net.named_parameters()]
net.fc = nn.Linear(4, 10)
print("trainable after replacing fc:",
      [n for n, p in net.named_parameters() if p.requires_grad])
# --8<-- [end:freeze-loop]

# --8<-- [start:target-copy]
policy_net, target_net = nn.Linear(4, 2), nn.Linear(4, 2)
target_net.load_state_dict(policy_net.state_dict())
copied = torch.equal(target_net.weight, policy_net.weight)
shares = target_net.weight.data_ptr() == policy_net.weight.data_ptr()
print("same values:", copied, "| same storage:", shares)
assert copied and not shares
with torch.no_grad():
    policy_net.weight.add_(1)
assert not torch.equal(target_net.weight, policy_net.weight)
# --8<-- [end:target-copy]

# --8<-- [start:numpy-guard]
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    arr = w.numpy()  # (1)!
print("under no_grad, w.numpy() ->", arr)
assert arr.tolist() == [1.0, 2.0] and w.requires_grad
w.numpy()  # (2)!
# --8<-- [end:numpy-guard]

# --8<-- [start:conv-features]
conv = nn.Conv2d(1, 2, 3)
features = conv(torch.rand(1, 1, 8, 8))
print("features[0].requires_grad:", features[0].requires_grad)
assert features[0].detach().numpy().shape == (2, 6, 6)
features[0].numpy()  # (1)!
# --8<-- [end:conv-features]

# --8<-- [start:clone-copy]
a = torch.tensor([1.0], requires_grad=True)
y = a.detach().clone()
y += 1
print("a:", a.detach(), "| y:", y, "| shared storage:",
      y.data_ptr() == a.data_ptr())
assert a.item() == 1.0 and y.item() == 2.0 and y.data_ptr() != a.data_ptr()
# --8<-- [end:clone-copy]

# --8<-- [start:hooks-stay]
model = nn.Linear(3, 1)
calls = []
model.weight.register_post_accumulate_grad_hook(lambda p: calls.append(1))
out = model(torch.ones(2, 3)).detach()
model(torch.ones(2, 3)).sum().backward()
print("hook on the parameter fired after detach():", len(calls), "time")
assert len(calls) == 1
# --8<-- [end:hooks-stay]

# --8<-- [start:toggle-freeze]
backbone, head = nn.Linear(4, 4), nn.Linear(4, 1)
inp = torch.randn(2, 4)
backbone.requires_grad_(False)
head(backbone(inp)).sum().backward()
assert backbone.weight.grad is None
backbone.requires_grad_(True)
head(backbone(inp)).sum().backward()
print("backbone gets a gradient again:", backbone.weight.grad is not None)
assert backbone.weight.grad is not None
# --8<-- [end:toggle-freeze]

# --8<-- [start:normalize]
act = torch.zeros(4, 4)
normalized = (act - act.min()) / (act.max() - act.min())
print("normalized constant map:", normalized[0])
assert all(math.isnan(v) for v in normalized.flatten().tolist())
# --8<-- [end:normalize]
