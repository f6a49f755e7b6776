"""The error chapter: every error and warning message PyTorch raises about the site's subject, from its source, each answered or excused."""
