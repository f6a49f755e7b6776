# raises: pgd-attack-wrong RuntimeError
"""Gradient tricks built from detach: straight-through rounding, hard
Gumbel-softmax, gradient reversal and the PGD attack loop, then what goes
wrong without the detach (or with one too many)."""

# --8<-- [start:setup]
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.tensor([0.2, 0.7, 1.4, -0.6], requires_grad=True)
# --8<-- [end:setup]

# --8<-- [start:quantize-ste]
def quantize_ste(x):
    return (torch.round(x) - x).detach() + x  # (1)!


y = quantize_ste(x)
(y * torch.arange(4.0)).sum().backward()
print("forward:", y.detach())
print("grad:", x.grad)
assert torch.equal(y, torch.round(x))
assert torch.equal(x.grad, torch.arange(4.0))
# --8<-- [end:quantize-ste]

# --8<-- [start:quantize-ste-wrong]
y = ((torch.round(x) - x) + x).detach()  # (1)!
print("requires_grad:", y.requires_grad)
assert not y.requires_grad
# --8<-- [end:quantize-ste-wrong]

# --8<-- [start:gumbel-hard]
logits = torch.randn(4, 3, requires_grad=True)
torch.manual_seed(1)
gumbels = -torch.empty_like(logits).exponential_().log()
y_soft = (logits + gumbels).softmax(dim=-1)
index = y_soft.max(dim=-1, keepdim=True)[1]
y_hard = torch.zeros_like(logits).scatter_(-1, index, 1.0)
ret = y_hard - y_soft.detach() + y_soft  # (1)!
torch.manual_seed(1)
same = torch.equal(ret, F.gumbel_softmax(logits, tau=1.0, hard=True))  # (2)!
(ret * torch.randn(4, 3)).sum().backward()
print("same as F.gumbel_softmax:", same)
print("row sums:", ret.detach().sum(dim=-1))
assert same and logits.grad.abs().sum() > 0
# --8<-- [end:gumbel-hard]

# --8<-- [start:gumbel-hard-wrong]
print("same forward value:", torch.equal(ret.detach(), y_hard))
print("y_hard requires grad:", y_hard.requires_grad)  # (1)!
assert torch.equal(ret.detach(), y_hard) and not y_hard.requires_grad
# --8<-- [end:gumbel-hard-wrong]

# --8<-- [start:gradient-reversal]
class ReverseLayerF(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)  # (1)!

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None  # (2)!


feature, domain_classifier = nn.Linear(4, 8), nn.Linear(8, 2)
inputs, domain = torch.randn(16, 4), torch.randint(0, 2, (16,))
reverse_feature = ReverseLayerF.apply(feature(inputs), 1.0)
err_domain = F.cross_entropy(domain_classifier(reverse_feature), domain)
g_reversed = torch.autograd.grad(err_domain, feature.weight)[0]
# --8<-- [end:gradient-reversal]

# --8<-- [start:gradient-reversal-wrong]
err_domain = F.cross_entropy(domain_classifier(feature(inputs)), domain)
g_plain = torch.autograd.grad(err_domain, feature.weight)[0]  # (1)!
print("reversed = -plain:", torch.allclose(g_reversed, -g_plain))
assert torch.allclose(g_reversed, -g_plain)
# --8<-- [end:gradient-reversal-wrong]

# --8<-- [start:pgd-attack]
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
images, labels = torch.rand(8, 4), torch.randint(0, 3, (8,))
eps, alpha, steps = 8 / 255, 2 / 255, 3
adv_images = images.clone().detach()
for _ in range(steps):
    adv_images.requires_grad = True
    cost = F.cross_entropy(model(adv_images), labels)
    grad = torch.autograd.grad(cost, adv_images)[0]
    adv_images = adv_images.detach() + alpha * grad.sign()  # (1)!
    delta = torch.clamp(adv_images - images, min=-eps, max=eps)
    adv_images = torch.clamp(images + delta, min=0, max=1).detach()
largest = (adv_images - images).abs().max().item()
print("largest change:", round(largest * 255, 3), "/ 255")
assert largest <= eps + 1e-6
assert adv_images.grad_fn is None
# --8<-- [end:pgd-attack]

# --8<-- [start:pgd-attack-wrong]
adv_images = images.clone().detach()
for step in range(steps):
    print("step", step, "| adv_images is a leaf:", adv_images.is_leaf)
    adv_images.requires_grad = True  # (1)!
    cost = F.cross_entropy(model(adv_images), labels)
    grad = torch.autograd.grad(cost, adv_images)[0]
    adv_images = adv_images + alpha * grad.sign()
    delta = torch.clamp(adv_images - images, min=-eps, max=eps)
    adv_images = torch.clamp(images + delta, min=0, max=1)
# --8<-- [end:pgd-attack-wrong]
