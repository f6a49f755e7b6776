"""FAQ: PPO advantages from a detached critic: the critic still learns, from
its own loss only."""

# --8<-- [start:ppo-detached-critic]
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical

torch.manual_seed(0)
actor = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
critic = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
states, actions = torch.randn(8, 4), torch.randint(0, 2, (8,))
rewards = torch.randn(8)
with torch.no_grad():
    old_logprobs = Categorical(logits=actor(states)).log_prob(actions)


def ppo_loss(detach):
    dist = Categorical(logits=actor(states))
    state_values = critic(states).squeeze(1)
    values = state_values.detach() if detach else state_values
    advantages = rewards - values  # (1)!
    ratios = torch.exp(dist.log_prob(actions) - old_logprobs)
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 0.8, 1.2) * advantages
    return (-torch.min(surr1, surr2)
            + 0.5 * F.mse_loss(state_values, rewards, reduction="none")
            - 0.01 * dist.entropy()).mean(), state_values  # (2)!


loss, state_values = ppo_loss(detach=True)
value_only = torch.autograd.grad(
    0.5 * F.mse_loss(state_values, rewards), critic[0].weight,
    retain_graph=True)[0]
loss.backward()
print("critic learns:", critic[0].weight.grad.abs().sum().item() > 0)
print("critic gradient = value loss's:",
      torch.allclose(critic[0].weight.grad, value_only))  # (3)!
assert torch.allclose(critic[0].weight.grad, value_only)

critic.zero_grad()
loss, _ = ppo_loss(detach=False)
loss.backward()
print("no detach: critic gradient = value loss's:",
      torch.allclose(critic[0].weight.grad, value_only))  # (4)!
assert not torch.allclose(critic[0].weight.grad, value_only)
# --8<-- [end:ppo-detached-critic]
