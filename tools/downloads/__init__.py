"""What a page's download bar links: its script, notebook and the helper's wheel."""
