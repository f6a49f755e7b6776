"""Seed claims about freezing, DQN, GANs and memory-saving detach."""

# --8<-- [start:freezing]
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from autograd_lens import (
    SavedTensorLedger,
    parameters_with_grad,
    reached_parameters,
)

torch.manual_seed(0)
features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Conv2d(8, 8, 3),
                         nn.ReLU(), nn.Flatten())
classifier = nn.Linear(8 * 4 * 4, 10)
images, labels = torch.randn(4, 3, 8, 8), torch.tensor([0, 1, 2, 3])
loss_fn = nn.CrossEntropyLoss()
before = {k: v.clone() for k, v in features.state_dict().items()}


def step(way):
    features.zero_grad(set_to_none=True)
    classifier.zero_grad(set_to_none=True)
    features.requires_grad_(way != "requires_grad=False")
    with SavedTensorLedger() as ledger:
        feats = features(images)
        if way == "detach()":
            feats = feats.detach()
        loss = loss_fn(classifier(feats), labels)
        held = ledger.live_nbytes  # (1)!
        loss.backward()
    return (
        (ledger.count, held),
        classifier.weight.grad.clone(),
        parameters_with_grad(features),
    )


results = {
    way: step(way) for way in ("full graph", "detach()", "requires_grad=False")
}
for way, ((count, held), _, got) in results.items():
    print(f"{way}: held at backward {held} B")
    print(f"   saved {count}, features with grad {len(got)}")
assert results["detach()"][2] == results["requires_grad=False"][2] == []
saved = {way: r[0] for way, r in results.items()}
assert (
    saved["requires_grad=False"][0]
    < saved["detach()"][0]
    <= saved["full graph"][0]
)
assert (
    saved["requires_grad=False"][1]
    == saved["detach()"][1]
    < saved["full graph"][1]
)
assert torch.equal(results["detach()"][1], results["requires_grad=False"][1])
after = features.state_dict()
unchanged = before.keys() == after.keys() and all(
    torch.equal(before[k], after[k]) for k in before
)
assert unchanged
features.requires_grad_(False)
new_fc = nn.Linear(8 * 4 * 4, 10)
loss = loss_fn(new_fc(features(images)), labels)
assert reached_parameters(loss, features) == []
assert reached_parameters(loss, new_fc) == ["weight", "bias"]
# --8<-- [end:freezing]

# --8<-- [start:dqn]
policy_net, target_net = nn.Linear(4, 2), nn.Linear(4, 2)
target_net.load_state_dict(policy_net.state_dict())
state, next_state = torch.randn(3, 4), torch.randn(3, 4)
reward, gamma = torch.ones(3), 0.99
target_q = reward + gamma * target_net(next_state).max(1)[0].detach()
q = policy_net(state).max(1)[0]
loss = ((q - target_q) ** 2).mean()
print(
    "DQN loss reaches policy:",
    reached_parameters(loss, policy_net),
    " target:",
    reached_parameters(loss, target_net),
)
assert len(reached_parameters(loss, policy_net)) == 2
assert reached_parameters(loss, target_net) == []
# --8<-- [end:dqn]

# --8<-- [start:gan]
torch.manual_seed(0)
G, D = nn.Linear(2, 3), nn.Linear(3, 1)
noise, real = torch.randn(4, 2), torch.randn(4, 3)
bce = nn.BCEWithLogitsLoss()
ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)


def d_step(detach):
    G.zero_grad(set_to_none=True)
    D.zero_grad(set_to_none=True)
    fake = G(noise)
    d_loss = bce(D(real), ones) + bce(
        D(fake.detach() if detach else fake), zeros
    )
    d_loss.backward()
    return D.weight.grad.clone(), G.weight.grad


with_detach, without = d_step(True), d_step(False)
print(
    "D step: D grads equal with/without detach:",
    torch.equal(with_detach[0], without[0]),
)
print(
    "D step: G.grad set with detach:",
    with_detach[1] is not None,
    " without:",
    without[1] is not None,
)
assert with_detach[1] is None
assert without[1] is not None
assert torch.equal(with_detach[0], without[0])

g_loss = bce(D(G(noise).detach()), ones)
print("G step with detach reaches G:", reached_parameters(g_loss, G))
assert reached_parameters(g_loss, G) == []
D.zero_grad(set_to_none=True)
g_loss = bce(D(G(noise)), ones)
g_loss.backward()
print("after the G step, D.weight.grad is set:", D.weight.grad is not None)
assert len(reached_parameters(g_loss, G)) == 2
assert D.weight.grad is not None
# --8<-- [end:gan]

# --8<-- [start:gan-accuracy]
def d_accuracy(detach: bool, zero_g_before_g_step: bool) -> torch.Tensor:
    """D's accuracy on each of 200 steps of a small GAN (2-D data)."""
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
    D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-2)
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-2)
    ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
    accuracy = []
    for _ in range(200):
        real = torch.randn(32, 2) * 0.5 + 2.0
        noise = torch.randn(32, 2)
        opt_d.zero_grad()
        opt_g.zero_grad()  # (1)!
        fake = G(noise)
        d_real, d_fake = D(real), D(fake.detach() if detach else fake)
        (bce(d_real, ones) + bce(d_fake, zeros)).backward()
        opt_d.step()
        correct = (d_real > 0).sum() + (d_fake < 0).sum()
        accuracy.append(correct.item() / 64)
        if zero_g_before_g_step:
            opt_g.zero_grad()  # (2)!
        bce(D(G(noise)), ones).backward()
        opt_g.step()
    return torch.tensor(accuracy)


gap = {}
for zero_g in (False, True):
    gap[zero_g] = d_accuracy(True, zero_g) - d_accuracy(False, zero_g)
    when = "right before its step" if zero_g else "at the top only"
    print(f"G zeroed {when:21}: largest gap {gap[zero_g].abs().max():.2f}")
assert gap[False].abs().max() > 0.5
assert torch.equal(gap[True], torch.zeros(200))  # (3)!
# --8<-- [end:gan-accuracy]

# --8<-- [start:std-vs-grad]
torch.manual_seed(0)
inp = torch.randn(64, 16)
large, small = nn.Linear(16, 16), nn.Linear(16, 16)
small.load_state_dict(large.state_dict())
with torch.no_grad():
    small.weight.mul_(0.1)
    small.bias.mul_(0.1)
h_small, h_large = small(inp), large(inp)
loss = (h_small * 5).sum() + h_large.sum()  # (1)!
loss.backward()
print(f"activation std: small {h_small.detach().std():.3f},"
      f" large {h_large.detach().std():.3f}")
print(f"weight grad norm: small {small.weight.grad.norm():.1f},"
      f" large {large.weight.grad.norm():.1f}")
assert torch.allclose(h_small.std() * 10, h_large.std())
assert small.weight.grad.norm() > large.weight.grad.norm()
# --8<-- [end:std-vs-grad]

# --8<-- [start:checkpoint]
torch.manual_seed(0)
blocks = nn.ModuleList(
    nn.Sequential(nn.Linear(32, 32), nn.Tanh()) for _ in range(4)
)
seq = torch.randn(8, 32)


def run(mode):
    blocks.zero_grad(set_to_none=True)
    h = seq
    with SavedTensorLedger() as ledger:
        for i, block in enumerate(blocks):
            if mode == "checkpointing":
                h = checkpoint(block, h, use_reentrant=False)
            else:
                h = block(h)
            if mode == "selective detach" and i == 1:
                h = h.detach()
        loss = h.pow(2).sum()
        nbytes = ledger.live_nbytes
        loss.backward()
    return nbytes, blocks[0][0].weight.grad


full, sel, ckpt = (
    run("full graph"),
    run("selective detach"),
    run("checkpointing"),
)
print(
    "bytes held at backward: full",
    full[0],
    "| selective detach",
    sel[0],
    "| checkpointing",
    ckpt[0],
)
print(
    "block 0 gradient: checkpointing identical to full:",
    torch.equal(ckpt[1], full[1]),
)
print("block 0 gradient with selective detach:", sel[1])
assert torch.equal(ckpt[1], full[1]) and sel[1] is None
assert ckpt[0] < sel[0] < full[0]
assert sel[0] < full[0]
# --8<-- [end:checkpoint]
