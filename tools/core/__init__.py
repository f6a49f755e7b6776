"""What every package shares: the layout, errors, data files and section markers."""
