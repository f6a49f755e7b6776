# raises: full-backward-hook RuntimeError
# warns: full-backward-fix UserWarning
"""Forward hooks capture activations; a detached capture is an alias, not a
snapshot; gradient hooks see what activation statistics cannot; a module's
full backward hook and an in-place ReLU after it do not mix."""

# --8<-- [start:capture]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1),
    nn.ReLU(inplace=True),  # (1)!
    nn.Conv2d(4, 8, 3, padding=1),
)
captured = {}


def save_output(name):
    def hook(module, inputs, output):
        captured[name] = output.detach()  # (2)!
    return hook


handle = model[0].register_forward_hook(save_output("conv1"))
image = torch.randn(1, 1, 16, 16)
with torch.no_grad():
    model(image)
handle.remove()  # (3)!

reference = nn.functional.conv2d(image, model[0].weight, model[0].bias,
                                 padding=1)
print("captured min:", captured["conv1"].min().item())
print("true conv1 output min:", round(reference.min().item(), 4))
is_relu = torch.equal(captured["conv1"], reference.relu())
print("capture equals relu(conv1), not conv1:", is_relu)
assert (
    captured["conv1"].min().item() == 0.0 and reference.min().item() < 0
)  # (4)!
# --8<-- [end:capture]


# --8<-- [start:clone]
def save_snapshot(name):
    def hook(module, inputs, output):
        captured[name] = output.detach().clone()  # (1)!

    return hook


handle = model[0].register_forward_hook(save_snapshot("conv1"))
with torch.no_grad():
    model(image)
handle.remove()
print(
    "snapshot equals conv1 output:",
    torch.allclose(captured["conv1"], reference),
)
assert torch.allclose(captured["conv1"], reference)
print(
    "on the CPU, .cpu() returns the tensor itself:",
    reference.cpu() is reference,
)  # (2)!
assert reference.cpu() is reference
# --8<-- [end:clone]

# --8<-- [start:grad-hooks]
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8), nn.Linear(8, 1))
with torch.no_grad():
    net[0].weight.mul_(0.01)  # (1)!
    net[1].weight.mul_(100.0)
acts, grads = {}, {}


def watch(name):
    def hook(module, inputs, output):
        acts[name] = output.detach().std().item()
        output.register_hook(
            lambda g: grads.__setitem__(name, g.norm().item())
        )  # (2)!

    return hook


for i in (0, 1):
    net[i].register_forward_hook(watch(f"layer{i}"))
inputs = torch.randn(64, 8)
net(inputs).pow(2).mean().backward()
for name in acts:
    print(f"{name}: activation std {acts[name]:.4f}")
    print(f"   gradient norm {grads[name]:.4f}")
assert (
    acts["layer0"] < acts["layer1"] / 10
    and grads["layer0"] > grads["layer1"] * 10
)  # (3)!
# --8<-- [end:grad-hooks]

# --8<-- [start:after-the-layer]
std_before, grad_before = acts["layer0"], grads["layer0"]
with torch.no_grad():
    net[2].weight.mul_(2.0)  # (1)!
net(inputs).pow(2).mean().backward()
print(f"layer0: activation std {acts['layer0']:.4f}"
      f"   gradient norm {grads['layer0']:.4f}")
assert acts["layer0"] == std_before  # (2)!
assert grads["layer0"] > 2 * grad_before
# --8<-- [end:after-the-layer]

# --8<-- [start:full-backward-hook]
grads = {}


def save_grad_output(module, grad_input, grad_output):
    grads["full hook"] = grad_output[0].detach().clone()


handle = model[0].register_full_backward_hook(save_grad_output)
model(image).sum().backward()  # (1)!
# --8<-- [end:full-backward-hook]

# --8<-- [start:full-backward-fix]
handle.remove()
model[1].inplace = False  # (1)!
handle = model[0].register_full_backward_hook(save_grad_output)
model(image).sum().backward()
handle.remove()
model[1].inplace = True


def tensor_hook(module, inputs, output):
    output.register_hook(  # (2)!
        lambda g: grads.__setitem__("tensor hook", g.detach().clone())
    )


handle = model[0].register_forward_hook(tensor_hook)
model(image).sum().backward()
handle.remove()
same = torch.equal(grads["full hook"], grads["tensor hook"])
print("non-in-place ReLU + full hook == in-place ReLU + tensor hook:", same)
assert same and grads["tensor hook"].abs().sum() > 0
# --8<-- [end:full-backward-fix]
