# raises: wgan-gp-wrong RuntimeError
"""Generative-model patterns that stop or reroute gradients: the GAN
discriminator step, the WGAN-GP gradient penalty and VQ-VAE's
straight-through quantizer, then what goes wrong without them."""

# --8<-- [start:setup]
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
generator = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 4))
discriminator = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2),
                              nn.Linear(8, 1))
z, real_imgs = torch.randn(16, 2), torch.randn(16, 4)
valid, fake = torch.ones(16, 1), torch.zeros(16, 1)
# --8<-- [end:setup]

# --8<-- [start:gan-d-step]
from autograd_lens import parameters_with_grad

adversarial_loss = nn.BCEWithLogitsLoss()
gen_imgs = generator(z)
real_loss = adversarial_loss(discriminator(real_imgs), valid)
fake_loss = adversarial_loss(discriminator(gen_imgs.detach()), fake)  # (1)!
d_loss = (real_loss + fake_loss) / 2
d_loss.backward()
print("generator params with .grad:", parameters_with_grad(generator))
assert parameters_with_grad(generator) == []
assert len(parameters_with_grad(discriminator)) == 4
# --8<-- [end:gan-d-step]

# --8<-- [start:wgan-gp]
def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples
                    + (1 - alpha) * fake_samples).requires_grad_(True)  # (1)!
    d_interpolates = D(interpolates)
    gradients = torch.autograd.grad(
        outputs=d_interpolates, inputs=interpolates,
        grad_outputs=torch.ones_like(d_interpolates),
        create_graph=True)[0]  # (2)!
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


discriminator.zero_grad()
gp = compute_gradient_penalty(discriminator, real_imgs, gen_imgs.detach())
gp.backward()  # (3)!
print(parameters_with_grad(discriminator))  # (4)!
assert len(parameters_with_grad(discriminator)) == 3
# --8<-- [end:wgan-gp]

# --8<-- [start:wgan-gp-wrong]
alpha = torch.rand(16, 1)
interpolates = (alpha * real_imgs
                + (1 - alpha) * gen_imgs.detach()).requires_grad_(True)
d_interpolates = discriminator(interpolates.detach())  # (1)!
torch.autograd.grad(d_interpolates, interpolates,
                    torch.ones_like(d_interpolates), create_graph=True)
# --8<-- [end:wgan-gp-wrong]

# --8<-- [start:vq-straight-through]
from autograd_lens import reached_parameters

encoder = nn.Linear(4, 2)
embed = torch.randn(2, 8)
input = encoder(real_imgs)
embed_ind = (input @ embed).argmax(dim=1)
quantize = F.embedding(embed_ind, embed.t())
diff = (quantize.detach() - input).pow(2).mean()  # (1)!
quantize = input + (quantize - input).detach()  # (2)!
recon_loss = F.mse_loss(quantize @ torch.randn(2, 4), real_imgs)
print("reaches the encoder:", reached_parameters(recon_loss, encoder))
assert reached_parameters(recon_loss, encoder) == ["weight", "bias"]
# --8<-- [end:vq-straight-through]

# --8<-- [start:vq-straight-through-wrong]
quantize = F.embedding(embed_ind, embed.t())  # (1)!
recon_loss = F.mse_loss(quantize @ torch.randn(2, 4), real_imgs)
print("reaches the encoder:", reached_parameters(recon_loss, encoder))
assert reached_parameters(recon_loss, encoder) == []
# --8<-- [end:vq-straight-through-wrong]
