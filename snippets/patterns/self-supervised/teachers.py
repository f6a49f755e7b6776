# raises: memory-queue-wrong RuntimeError
"""Self-supervised and teacher-student patterns: EMA weights, frozen
teachers, SimSiam's stop-gradient, the MoCo queue, DINO's running center,
distillation and pseudo-labels, then what goes wrong without each."""

# --8<-- [start:setup]
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
x1, x2 = torch.randn(16, 4), torch.randn(16, 4)
labels = torch.randint(0, 3, (16,))
# --8<-- [end:setup]

# --8<-- [start:ema-update]
ema = copy.deepcopy(student).requires_grad_(False)
optimizer = torch.optim.SGD(student.parameters(), lr=0.5)
F.cross_entropy(student(x1), labels).backward()
optimizer.step()
decay, before = 0.99, ema[0].weight.clone()
with torch.no_grad():  # (1)!
    for ema_v, model_v in zip(ema.state_dict().values(),
                              student.state_dict().values()):
        ema_v.copy_(ema_v * decay + (1. - decay) * model_v)  # (2)!
expected = decay * before + (1 - decay) * student[0].weight
print("EMA moved 1% of the way:", torch.allclose(ema[0].weight, expected))
assert torch.allclose(ema[0].weight, expected)
# --8<-- [end:ema-update]

# --8<-- [start:ema-update-wrong]
ema2 = copy.deepcopy(student).requires_grad_(False)
for ema_p, p in zip(ema2.parameters(), student.parameters()):
    ema_p.data = p.data  # (1)!
weight = student[0].weight.detach().clone()
with torch.no_grad():
    for ema_p, p in zip(ema2.parameters(), student.parameters()):
        ema_p.mul_(decay).add_(p, alpha=1 - decay)  # (2)!
shared = ema2[0].weight.data_ptr() == student[0].weight.data_ptr()
print("EMA shares storage with the student:", shared)
print("student changed by the EMA update:",
      not torch.equal(student[0].weight, weight))
assert shared and not torch.equal(student[0].weight, weight)
# --8<-- [end:ema-update-wrong]

# --8<-- [start:frozen-teacher]
from autograd_lens import reached_parameters

teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad = False  # (1)!
teacher_output = teacher(x2)
targets = F.softmax(teacher_output / 0.04, dim=-1)  # (2)!
log_p = F.log_softmax(student(x1) / 0.1, dim=-1)
loss = torch.sum(-targets * log_p, dim=-1).mean()
print("teacher output requires grad:", teacher_output.requires_grad)
print("loss reaches the teacher:", reached_parameters(loss, teacher))
assert reached_parameters(loss, teacher) == []
# --8<-- [end:frozen-teacher]

# --8<-- [start:simsiam]
predictor = nn.Linear(3, 3)
criterion = nn.CosineSimilarity(dim=1)


def forward(x1, x2):
    z1, z2 = student(x1), student(x2)
    p1, p2 = predictor(z1), predictor(z2)
    return p1, p2, z1.detach(), z2.detach()  # (1)!


p1, p2, z1, z2 = forward(x1, x2)
loss = -(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5
print("targets carry a graph:", z1.grad_fn is not None)
assert z1.grad_fn is None and len(reached_parameters(loss, student)) == 4
# --8<-- [end:simsiam]

# --8<-- [start:memory-queue]
K = 32
queue = F.normalize(torch.randn(3, K), dim=0)
queue_ptr = torch.zeros(1, dtype=torch.long)


@torch.no_grad()  # (1)!
def dequeue_and_enqueue(keys):
    ptr = int(queue_ptr)
    queue[:, ptr:ptr + keys.shape[0]] = keys.T
    queue_ptr[0] = (ptr + keys.shape[0]) % K


q = F.normalize(student(x1), dim=1)
k = F.normalize(student(x2), dim=1)
dequeue_and_enqueue(k)
print("queue has a grad_fn:", queue.grad_fn is not None)
assert queue.grad_fn is None and not queue.requires_grad
# --8<-- [end:memory-queue]

# --8<-- [start:memory-queue-wrong]
def enqueue_without_no_grad(keys):
    ptr = int(queue_ptr)
    queue[:, ptr:ptr + keys.shape[0]] = keys.T  # (1)!
    queue_ptr[0] = (ptr + keys.shape[0]) % K


for step in range(3):
    q = F.normalize(student(x1), dim=1)
    k = F.normalize(student(x2), dim=1)
    loss = torch.logsumexp(q @ queue / 0.07, dim=1).mean()
    print("step", step, "| queue has a grad_fn:", queue.grad_fn is not None)
    loss.backward()  # (2)!
    enqueue_without_no_grad(k)
# --8<-- [end:memory-queue-wrong]

# --8<-- [start:running-center]
class Centering(nn.Module):
    def __init__(self, out_dim, center_momentum=0.9):
        super().__init__()
        self.center_momentum = center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    @torch.no_grad()  # (1)!
    def update_center(self, teacher_output):
        batch_center = torch.mean(teacher_output, dim=0, keepdim=True)
        self.center = (self.center * self.center_momentum
                       + batch_center * (1 - self.center_momentum))


centering = Centering(3)
for step in range(3):
    centering.update_center(student(x1))
print("center has a grad_fn:", centering.center.grad_fn is not None)
assert centering.center.grad_fn is None
# --8<-- [end:running-center]

# --8<-- [start:running-center-wrong]
from autograd_lens import SavedTensorLedger


class LeakyCentering(Centering):
    def update_center(self, teacher_output):  # (1)!
        batch_center = torch.mean(teacher_output, dim=0, keepdim=True)
        self.center = (self.center * self.center_momentum
                       + batch_center * (1 - self.center_momentum))


leaky = LeakyCentering(3)
with SavedTensorLedger() as ledger:
    for step in range(3):
        leaky.update_center(student(x1))
        print("step", step, "| tensors still held:", ledger.live_count)
assert ledger.live_count > 0 and leaky.center.grad_fn is not None  # (2)!
# --8<-- [end:running-center-wrong]

# --8<-- [start:distillation]
model_t = copy.deepcopy(student)
model_s = nn.Sequential(nn.Linear(4, 3))
T = 4.0
logit_s = model_s(x1)
with torch.no_grad():  # (1)!
    logit_t = model_t(x1)
loss_div = F.kl_div(F.log_softmax(logit_s / T, dim=1),
                    F.softmax(logit_t / T, dim=1),
                    reduction="batchmean") * T * T
print("loss reaches the teacher:", reached_parameters(loss_div, model_t))
assert reached_parameters(loss_div, model_t) == []
# --8<-- [end:distillation]

# --8<-- [start:distillation-wrong]
with SavedTensorLedger() as ledger:
    logit_t = model_t(x1)  # (1)!
    loss_div = F.kl_div(F.log_softmax(logit_s / T, dim=1),
                        F.softmax(logit_t / T, dim=1),
                        reduction="batchmean") * T * T
print("teacher params reached:", len(reached_parameters(loss_div, model_t)))
print("teacher activations saved:", ledger.count > 0)
assert len(reached_parameters(loss_div, model_t)) == 4 and ledger.count > 0
# --8<-- [end:distillation-wrong]

# --8<-- [start:pseudo-labels]
logits_u_w, logits_u_s = student(x1), student(x2)
pseudo_label = torch.softmax(logits_u_w.detach() / 1.0, dim=-1)  # (1)!
max_probs, targets_u = torch.max(pseudo_label, dim=-1)
mask = max_probs.ge(0.4).float()
Lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
g_detached = torch.autograd.grad(Lu, student[0].weight)[0]
print("pseudo-labels used:", int(mask.sum()), "of", len(mask))
assert targets_u.grad_fn is None and mask.grad_fn is None
# --8<-- [end:pseudo-labels]

# --8<-- [start:pseudo-labels-wrong]
logits_u_w, logits_u_s = student(x1), student(x2)
pseudo_label = torch.softmax(logits_u_w / 1.0, dim=-1)  # (1)!
max_probs, targets_u = torch.max(pseudo_label, dim=-1)
mask = max_probs.ge(0.4).float()
Lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
g_hard = torch.autograd.grad(Lu, student[0].weight, retain_graph=True)[0]
print("hard labels, no detach: same gradient:",
      torch.equal(g_hard, g_detached))
assert torch.equal(g_hard, g_detached)

soft = F.cross_entropy(logits_u_s, pseudo_label)  # (2)!
soft_detached = F.cross_entropy(logits_u_s, pseudo_label.detach())
g_soft = torch.autograd.grad(soft, student[0].weight, retain_graph=True)[0]
g_soft_detached = torch.autograd.grad(soft_detached, student[0].weight)[0]
print("soft targets, no detach: same gradient:",
      torch.allclose(g_soft, g_soft_detached))
assert not torch.allclose(g_soft, g_soft_detached)
# --8<-- [end:pseudo-labels-wrong]
