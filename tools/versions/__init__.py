"""The torch-version matrix: run every snippet under a release, and say on each page what differs."""
