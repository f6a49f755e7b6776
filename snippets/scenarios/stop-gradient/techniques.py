"""Stop-gradient techniques, each with a gradient check: the straight-through
estimator, SimSiam / BYOL, and the VQ-VAE codebook and commitment losses."""

# --8<-- [start:ste]
import copy

import torch
from torch import nn

x = torch.tensor([0.2, 0.7, 1.4, -0.6], requires_grad=True)
torch.round(x).sum().backward()
print("grad through round():", x.grad)  # (1)!
assert torch.equal(x.grad, torch.zeros(4))

x.grad = None
q = torch.round(x)
y = x + (q - x).detach()  # (2)!
y.sum().backward()
print("forward value:", y.detach(), "| grad:", x.grad)
assert torch.allclose(y.detach(), q) and torch.equal(x.grad,
                      torch.ones(4))  # (3)!
# --8<-- [end:ste]

# --8<-- [start:simsiam]
torch.manual_seed(0)
predictor = nn.Linear(8, 8)
z1 = torch.randn(16, 8, requires_grad=True)
z2 = torch.randn(16, 8, requires_grad=True)

def neg_cos(p, z):
    return -nn.functional.cosine_similarity(p, z, dim=-1).mean()

loss = (neg_cos(predictor(z1), z2.detach()) / 2  # (1)!
        + neg_cos(predictor(z2), z1.detach()) / 2)
g1, = torch.autograd.grad(loss, z1, retain_graph=True)
first_term = neg_cos(predictor(z1), z2.detach()) / 2
only_predictor_path, = torch.autograd.grad(first_term, z1)  # (2)!
print("dL/dz1 comes only through the predictor:",
      torch.allclose(g1, only_predictor_path))
assert torch.allclose(g1, only_predictor_path)

no_sg = neg_cos(predictor(z1), z2) / 2 + neg_cos(predictor(z2), z1) / 2
g1_no_sg, = torch.autograd.grad(no_sg, z1)
changed = not torch.allclose(g1, g1_no_sg)
print("without stop-gradient the gradient changes:", changed)
assert not torch.allclose(g1, g1_no_sg)
# --8<-- [end:simsiam]

# --8<-- [start:byol]
from autograd_lens import parameters_with_grad, reached_parameters

online = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
target = copy.deepcopy(online).requires_grad_(False)  # (1)!
view1, view2 = torch.randn(16, 8), torch.randn(16, 8)
loss = neg_cos(predictor(online(view1)), target(view2))
print("loss reaches target:", reached_parameters(loss, target))
loss.backward()
print("online params with .grad:", len(parameters_with_grad(online)),
      "| target:", parameters_with_grad(target))
assert (
    parameters_with_grad(target) == []
    and len(parameters_with_grad(online)) == 4
)
with torch.no_grad():  # (2)!
    for t, o in zip(target.parameters(), online.parameters()):
        t.lerp_(o, 0.01)
# --8<-- [end:byol]

# --8<-- [start:vqvae]
torch.manual_seed(0)
codebook = nn.Embedding(4, 2)
z_e = torch.randn(6, 2, requires_grad=True)
idx = torch.cdist(z_e, codebook.weight).argmin(dim=1)
e = codebook(idx)

codebook_loss = (z_e.detach() - e).pow(2).mean()  # (1)!
commitment_loss = (z_e - e.detach()).pow(2).mean()  # (2)!
z_q = z_e + (e - z_e).detach()  # (3)!

g_cb = torch.autograd.grad(
    codebook_loss, [z_e, codebook.weight], allow_unused=True
)
g_cm = torch.autograd.grad(
    commitment_loss, [z_e, codebook.weight], allow_unused=True
)
for name, (to_enc, to_cb) in {"codebook": g_cb, "commitment": g_cm}.items():
    print(
        f"{name + ' loss':15} -> encoder: {to_enc is not None} "
        f"| codebook: {to_cb is not None}"
    )
assert g_cb[0] is None and g_cb[1] is not None
assert g_cm[0] is not None and g_cm[1] is None

decoder_grad = torch.randn(6, 2)
(g_ze,) = torch.autograd.grad(z_q, z_e, grad_outputs=decoder_grad)
print(
    "decoder gradient copied to the encoder:", torch.equal(g_ze, decoder_grad)
)
print("z_q equals the codebook vectors:", torch.allclose(z_q, e))
assert torch.equal(g_ze, decoder_grad) and torch.allclose(z_q, e)
# --8<-- [end:vqvae]
