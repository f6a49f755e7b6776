"""FAQ: exp(logp - logp.detach()) in a policy-gradient loss."""

# --8<-- [start:logp-minus-detached-logp]
import torch

torch.manual_seed(0)
logits = torch.randn(4, 5, requires_grad=True)
tokens = torch.tensor([1, 0, 3, 2])
advantages = torch.tensor([0.5, -1.0, 2.0, 0.25])


def token_logp():
    return torch.log_softmax(logits, -1).gather(1, tokens[:, None])[:, 0]


logp = token_logp()
ratio = torch.exp(logp - logp.detach())  # (1)!
ratio_loss = (ratio * advantages).sum()
print("ratio:", ratio.tolist())
assert torch.equal(ratio, torch.ones(4))
assert torch.isclose(ratio_loss, advantages.sum())  # (2)!

(g_ratio,) = torch.autograd.grad(ratio_loss, logits)
(g_plain,) = torch.autograd.grad((token_logp() * advantages).sum(), logits)
print("same gradient as logp * advantages:", torch.allclose(g_ratio, g_plain))
assert torch.allclose(g_ratio, g_plain)  # (3)!
# --8<-- [end:logp-minus-detached-logp]
