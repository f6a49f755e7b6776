"""Four ways to train only a head on a backbone: what autograd keeps, what
learns, what the optimizer sees, and what still changes in the state_dict."""

# --8<-- [start:setup]
import copy

import torch
from torch import nn

torch.manual_seed(0)

def make_backbone() -> nn.Sequential:  # (1)!
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1,
                  stride=2), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )

class Classifier(nn.Module):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.backbone = make_backbone()
        self.head = nn.Linear(32, 10)
        if mode == "requires_grad":
            self.backbone.requires_grad_(False)  # (2)!

    def forward(self, x):
        if self.mode == "no_grad":
            with torch.no_grad():  # (3)!
                f = self.backbone(x)
        else:
            f = self.backbone(x)
        if self.mode == "detach":
            f = f.detach()  # (4)!
        return self.head(f)

pretrained = make_backbone().state_dict()
x = torch.randn(8, 3, 32, 32)
y = torch.randint(0, 10, (8,))
MODES = ["full", "requires_grad", "detach", "no_grad"]
# --8<-- [end:setup]

# --8<-- [start:memory]
from autograd_lens import SavedTensorLedger, reached_parameters


def one_step(mode: str):
    torch.manual_seed(1)
    model = Classifier(mode)
    model.backbone.load_state_dict(pretrained)
    model.train()
    before = copy.deepcopy(model.state_dict())
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad],
                          lr=0.1)
    with SavedTensorLedger() as ledger:
        loss = nn.functional.cross_entropy(model(x), y)
    held = ledger.live_nbytes  # (1)!
    reached = reached_parameters(loss, model)
    opt.zero_grad()
    loss.backward()
    opt.step()
    after = model.state_dict()
    changed = [k for k, v in after.items() if not torch.equal(v, before[k])]
    return model, opt, ledger, held, reached, changed

results = {m: one_step(m) for m in MODES}
print("mode: saved in forward, held at backward")
for m, (_, _, ledger, held, _, _) in results.items():
    print(f"{m}: {ledger.count}, {held:,} B")

full, frozen = (results[m][3] for m in ("full", "requires_grad"))
assert results["detach"][3] == results["no_grad"][3] == frozen < full  # (2)!
assert results["detach"][2].count == results["full"][2].count - 1  # (3)!
assert results["no_grad"][2].count == results["requires_grad"][2].count
ratio = results["detach"][3] / frozen
print(f"detach / requires_grad_(False) at backward: {ratio:.0%}")
# --8<-- [end:memory]

# --8<-- [start:who-learns]
from autograd_lens import parameters_with_grad

for m, (model, opt, _, _, reached, _) in results.items():
    n_opt = sum(len(g["params"]) for g in opt.param_groups)
    got = parameters_with_grad(model)
    print(f"{m}: .grad on {sorted({n.split('.')[0] for n in got})}")
    print(f"   optimizer sees {n_opt}, .grad set on {len(got)}")
    assert got == reached  # (1)!
    assert (m == "full") == any(n.startswith("backbone") for n in got)
# --8<-- [end:who-learns]

# --8<-- [start:state-dict]
buffers = {"running_mean", "running_var", "num_batches_tracked"}
for m, (model, *_, changed) in results.items():
    bb = [k for k in changed if k.startswith("backbone")]
    n_buf = sum(k.rsplit(".", 1)[1] in buffers for k in bb)
    print(f"{m}: backbone parameters {len(bb) - n_buf}/8 changed")
    print(f"   BatchNorm buffers {n_buf}/6, head {len(changed) - len(bb)}/2")
bn_stats = {f"backbone.1.{b}" for b in buffers}
assert all(bn_stats <= set(results[m][5]) for m in MODES)  # (1)!
backbone_params = {
    f"backbone.{n}" for n, _ in make_backbone().named_parameters()
}
assert all(not backbone_params & set(results[m][5]) for m in MODES[1:])  # (2)!
# --8<-- [end:state-dict]

# --8<-- [start:eval]
torch.manual_seed(1)
model = Classifier("requires_grad")
model.backbone.load_state_dict(pretrained)
model.train()
model.backbone.eval()  # (1)!
before = copy.deepcopy(model.backbone.state_dict())
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
after = model.backbone.state_dict()
unchanged = all(torch.equal(v, before[k]) for k, v in after.items())
print("backbone state_dict unchanged in eval():", unchanged)
print("head still in training mode:", model.head.training)
assert unchanged and not model.backbone.training
model.train()
print(
    "after model.train(), backbone back in training mode:",
    model.backbone.training,
)
assert model.backbone.training
# --8<-- [end:eval]

# --8<-- [start:keys]
keys = {m: list(results[m][0].state_dict().keys()) for m in MODES}
same_keys = all(k == keys["full"] for k in keys.values())
print("same state_dict keys in all four:", same_keys)
assert same_keys
fresh = Classifier("full")  # (1)!
fresh.load_state_dict(results["requires_grad"][0].state_dict())
all_require = all(p.requires_grad for p in fresh.parameters())
print("loaded into a new model, all require grad:", all_require)
assert all_require
# --8<-- [end:keys]

# --8<-- [start:frozen-middle]
first, middle, last = nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 1)
middle.requires_grad_(False)  # (1)!
h = middle(first(torch.randn(2, 4)))
print("frozen layer's output: requires_grad", h.requires_grad)
print("   grad_fn set:", h.grad_fn is not None)
assert h.requires_grad and h.grad_fn is not None  # (2)!
last(h).sum().backward()
print("first.weight.grad set:", first.weight.grad is not None)
print("middle.weight.grad:", middle.weight.grad)
assert first.weight.grad is not None and middle.weight.grad is None
# --8<-- [end:frozen-middle]
