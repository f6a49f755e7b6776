"""The error chapter: PyTorch's error and warning messages on the site's subject, from its source."""
