# raises: td-target-wrong RuntimeError
# raises: ppo-rollout-wrong RuntimeError
"""Reinforcement-learning patterns that stop or reroute gradients, each as
the repositories write it, then what goes wrong without it."""

# --8<-- [start:setup]
import copy

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical, Normal


def mlp(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, 16), nn.Tanh(), nn.Linear(16, n_out))


torch.manual_seed(0)
obs, next_obs = torch.randn(8, 4), torch.randn(8, 4)
actions = torch.randint(0, 2, (8,))
rewards, dones, gamma = torch.randn(8), torch.zeros(8), 0.99
# --8<-- [end:setup]

# --8<-- [start:td-target]
from autograd_lens import reached_parameters

q_network = mlp(4, 2)
target_network = copy.deepcopy(q_network)
with torch.no_grad():  # (1)!
    target_max, _ = target_network(next_obs).max(dim=1)
    td_target = rewards + gamma * target_max * (1 - dones)
old_val = q_network(obs).gather(1, actions[:, None]).squeeze(1)
loss = F.mse_loss(td_target, old_val)
print("reaches target_network:", reached_parameters(loss, target_network))
print("q_network params reached:", len(reached_parameters(loss, q_network)))
assert reached_parameters(loss, target_network) == []
assert len(reached_parameters(loss, q_network)) == 4
# --8<-- [end:td-target]

# --8<-- [start:td-target-wrong]
with torch.no_grad():
    target_max, _ = target_network(next_obs).max(dim=1)
    td_target = rewards + gamma * target_max * (1 - dones)
    wrong_val = q_network(obs).gather(1, actions[:, None]).squeeze(1)  # (1)!
wrong_loss = F.mse_loss(td_target, wrong_val)
print("loss.requires_grad:", wrong_loss.requires_grad)
assert not wrong_loss.requires_grad
wrong_loss.backward()  # (2)!
# --8<-- [end:td-target-wrong]

# --8<-- [start:polyak-update]
optimizer = torch.optim.SGD(q_network.parameters(), lr=0.1)
loss.backward()
optimizer.step()
tau, before = 0.005, target_network[0].weight.clone()
with torch.no_grad():  # (1)!
    for param, target_param in zip(q_network.parameters(),
                                   target_network.parameters()):
        target_param.mul_(1 - tau)  # (2)!
        torch.add(target_param, param, alpha=tau, out=target_param)
expected = (1 - tau) * before + tau * q_network[0].weight
moved = torch.allclose(target_network[0].weight, expected)
print("target moved tau of the way:", moved)
assert moved and target_network[0].weight.grad_fn is None
# --8<-- [end:polyak-update]

# --8<-- [start:polyak-update-wrong]
before = target_network[0].weight.clone()
for param, target_param in zip(q_network.parameters(),
                               target_network.parameters()):
    target_param = tau * param + (1 - tau) * target_param  # (1)!
unchanged = torch.equal(target_network[0].weight, before)
print("target unchanged:", unchanged)
assert unchanged
# --8<-- [end:polyak-update-wrong]

# --8<-- [start:actor-critic-advantage]
actor, critic = mlp(4, 2), mlp(4, 1)
returns = torch.randn(8, 1)
values = critic(obs)
log_probs = Categorical(logits=actor(obs)).log_prob(actions)[:, None]
advantages = returns - values
value_loss = advantages.pow(2).mean()
action_loss = -(advantages.detach() * log_probs).mean()  # (1)!
value_only = torch.autograd.grad(0.5 * value_loss, list(critic.parameters()),
                                 retain_graph=True)
(0.5 * value_loss + action_loss).backward()
same = all(torch.allclose(p.grad, g)
           for p, g in zip(critic.parameters(), value_only))
print("critic gradient = value loss only:", same)
assert same
# --8<-- [end:actor-critic-advantage]

# --8<-- [start:actor-critic-advantage-wrong]
critic.zero_grad()
values = critic(obs)
log_probs = Categorical(logits=actor(obs)).log_prob(actions)[:, None]
advantages = returns - values
action_loss = -(advantages * log_probs).mean()  # (1)!
(0.5 * advantages.pow(2).mean() + action_loss).backward()
same = all(torch.allclose(p.grad, g)
           for p, g in zip(critic.parameters(), value_only))
print("critic gradient = value loss only:", same)
assert not same
# --8<-- [end:actor-critic-advantage-wrong]

# --8<-- [start:ppo-rollout]
agent_actor, agent_critic = mlp(4, 2), mlp(4, 1)
with torch.no_grad():  # (1)!
    logprobs = Categorical(logits=agent_actor(obs)).log_prob(actions)
    values = agent_critic(obs).squeeze(1)
    next_values = agent_critic(next_obs).squeeze(1)
    advantages = rewards + gamma * next_values * (1 - dones) - values
newlogprob = Categorical(logits=agent_actor(obs)).log_prob(actions)
ratio = (newlogprob - logprobs).exp()
pg_loss = torch.max(-advantages * ratio,
                    -advantages * torch.clamp(ratio, 0.8, 1.2)).mean()
pg_loss.backward()
grad_norm = agent_actor[0].weight.grad.norm().item()
print("ratio:", ratio.detach().unique(), "| actor grad > 0:", grad_norm > 0)
assert torch.allclose(ratio, torch.ones(8)) and grad_norm > 0
# --8<-- [end:ppo-rollout]

# --8<-- [start:ppo-rollout-wrong]
agent_actor.zero_grad()
logprobs = Categorical(logits=agent_actor(obs)).log_prob(actions)  # (1)!
values = agent_critic(obs).squeeze(1)
next_values = agent_critic(next_obs).squeeze(1)
advantages = rewards + gamma * next_values * (1 - dones) - values
newlogprob = Categorical(logits=agent_actor(obs)).log_prob(actions)
ratio = (newlogprob - logprobs).exp()
pg_loss = torch.max(-advantages * ratio,
                    -advantages * torch.clamp(ratio, 0.8, 1.2)).mean()
pg_loss.backward()
zero = torch.count_nonzero(agent_actor[0].weight.grad).item() == 0
print("actor gradient all zeros:", zero)
print("critic trained by pg_loss:", agent_critic[0].weight.grad is not None)
assert zero and agent_critic[0].weight.grad is not None  # (2)!
newlogprob = Categorical(logits=agent_actor(obs)).log_prob(actions)
ratio = (newlogprob - logprobs).exp()
(-advantages * ratio).mean().backward()  # (3)!
# --8<-- [end:ppo-rollout-wrong]

# --8<-- [start:sac-temperature]
actor_mean = mlp(4, 1)
log_ent_coef = torch.zeros(1, requires_grad=True)
target_entropy = -1.0
dist = Normal(actor_mean(obs), 1.0)
log_prob = dist.log_prob(dist.rsample()).sum(dim=1)
ent_coef_loss = -(log_ent_coef
                  * (log_prob + target_entropy).detach()).mean()  # (1)!
print("reaches the actor:", reached_parameters(ent_coef_loss, actor_mean))
ent_coef_loss.backward()
assert reached_parameters(ent_coef_loss, actor_mean) == []
assert log_ent_coef.grad is not None
# --8<-- [end:sac-temperature]

# --8<-- [start:sac-temperature-wrong]
ent_coef_loss = -(log_ent_coef * (log_prob + target_entropy)).mean()  # (1)!
reached = reached_parameters(ent_coef_loss, actor_mean)
print("actor params reached:", len(reached))
assert len(reached) == 4
# --8<-- [end:sac-temperature-wrong]

# --8<-- [start:actor-through-critic]
from autograd_lens import parameters_with_grad

actor, qf1 = mlp(4, 1), mlp(5, 1)
actor_optimizer = torch.optim.Adam(actor.parameters(), lr=3e-4)
actor_loss = -qf1(torch.cat([obs, actor(obs)], dim=1)).mean()  # (1)!
actor_optimizer.zero_grad()
actor_loss.backward()
actor_optimizer.step()
print("actor params with .grad:", len(parameters_with_grad(actor)))
print("qf1 params with .grad:", len(parameters_with_grad(qf1)))  # (2)!
assert len(parameters_with_grad(actor)) == 4
assert len(parameters_with_grad(qf1)) == 4
# --8<-- [end:actor-through-critic]

# --8<-- [start:actor-through-critic-wrong]
actor_loss = -qf1(torch.cat([obs, actor(obs).detach()], dim=1)).mean()  # (1)!
print("reaches the actor:", reached_parameters(actor_loss, actor))
assert reached_parameters(actor_loss, actor) == []
# --8<-- [end:actor-through-critic-wrong]

# --8<-- [start:reference-model]
policy = mlp(4, 2)
reference_model = copy.deepcopy(policy)


def sequence_logps(model):
    logits = model(obs).log_softmax(dim=-1)
    return logits.gather(1, actions[:, None]).squeeze(1)


policy_logps = sequence_logps(policy)
with torch.no_grad():  # (1)!
    reference_logps = sequence_logps(reference_model)
logratios = (policy_logps - reference_logps).view(2, 4)
loss = -F.logsigmoid(0.1 * (logratios[0] - logratios[1])).mean()  # (2)!
print("reaches reference_model:", reached_parameters(loss, reference_model))
assert reached_parameters(loss, reference_model) == []
# --8<-- [end:reference-model]

# --8<-- [start:reference-model-wrong]
from autograd_lens import SavedTensorLedger

with SavedTensorLedger() as with_ref:
    reference_logps = sequence_logps(reference_model)  # (1)!
logratios = (policy_logps - reference_logps).view(2, 4)
loss = -F.logsigmoid(0.1 * (logratios[0] - logratios[1])).mean()
reached = reached_parameters(loss, reference_model)
print("reference params reached:", len(reached))
print("activations saved for it:", with_ref.count > 0)
assert len(reached_parameters(loss, reference_model)) == 4
assert with_ref.count > 0
# --8<-- [end:reference-model-wrong]
